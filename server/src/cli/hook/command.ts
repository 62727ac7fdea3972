// `herald hook <harness> [payload]` in the command line's help. bin/herald.js starts the light
// entry point (entry.ts) instead; this path runs the same hook when the full command line is used.
import type { Command } from "commander";

export function registerHookCommand(program: Command): void {
  program
    .command("hook")
    .argument("<harness>", "claude-code or codex")
    .argument("[payload...]", "codex: Codex's notify JSON (its last argument)")
    .description("an agent harness's hook: report the finished turn to Herald (HERALD_URL, HERALD_PRODUCER_KEY, HERALD_PERSON_ID); always exits 0")
    .action(async (harness: string, payload: string[]) => {
      const { runHook } = await import("./run.ts");
      await runHook([harness, ...payload]);
      // As in entry.ts: a read the budget cut short must not keep the harness waiting.
      process.stderr.write("", () => process.exit(0));
    });
}
