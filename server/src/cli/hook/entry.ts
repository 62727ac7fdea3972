// The light entry point of `herald hook`, imported by bin/herald.js instead of the full command
// line: a harness runs it after every turn, so it loads only the hook's own modules.
import { runHook } from "./run.ts";

await runHook(process.argv.slice(3));
// A read the budget cut short (stdin left open) must not keep the harness waiting.
process.stderr.write("", () => process.exit(0));
