// `herald hook <harness> [payload]` in the command line's help; bin/herald.js runs the command
// itself through the light entry point (entry.ts).
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
    });
}
