// Loaded with `node --import`: appends the URL of every module the process resolves through
// `import` to the file MODULE_TRACE_FILE names, one per line (what a command loaded, for tests).
import { register } from "node:module";

register("./module-trace-hooks.mjs", import.meta.url, { data: { file: process.env.MODULE_TRACE_FILE } });
