// `herald hook <harness> [payload]`: the program an agent harness runs after its events. Started by
// bin/herald.js directly (no server, store or configuration loading), it always exits 0 and
// prints nothing on stdout: a harness may read a hook's exit code or output as an instruction
// (Claude Code feeds a Stop hook's exit 2 back to the model and keeps it working).
import { approvalBudget, hookBudget, type HookBudget, runSwallowing, tell } from "./budget.ts";
import { type ClaudeHookAction, claudeHookAction, HARNESS as CLAUDE_CODE, runClaudeCodeHook } from "./claude-code.ts";
import { codexHookAction } from "./codex.ts";
import { HookReporter } from "./report.ts";

/** The most of stdin a hook reads: Claude Code's payloads are a few kilobytes. */
export const MAX_HOOK_INPUT_BYTES = 1024 * 1024;

export const hookHarnesses = ["claude-code", "codex"] as const;

export async function runHook(args: readonly string[]): Promise<void> {
  const [harness, ...rest] = args;
  if (harness === "--help" || harness === "-h" || harness === undefined) {
    process.stderr.write(
      `usage: herald hook <${hookHarnesses.join("|")}> [payload]\n  claude-code reads the hook's JSON on stdin; codex takes Codex's notify JSON as the last argument\n`,
    );
    return;
  }
  const budget = hookBudget();
  const reporter = () => new HookReporter(budget);
  if (harness === CLAUDE_CODE) return runClaudeCode(budget);
  await runSwallowing(harness, budget, async () => {
    switch (harness) {
      case "codex": {
        if (rest.length === 0) throw new Error("no notify argument (Codex passes its JSON as the last argument)");
        const action = codexHookAction(parseJson(rest.at(-1)!, "the notify argument"), process.cwd());
        if (action.kind === "exchange") await reporter().exchange(action.exchange);
        return;
      }
      default:
        tell(harness, `unknown harness; one of ${hookHarnesses.join(", ")}`);
    }
  });
}

/** Claude Code's hook; a permission request, once read, runs on a budget of its own (the wait for the person). */
async function runClaudeCode(budget: HookBudget): Promise<void> {
  const noApproval = { waitSeconds: 0, decide: () => undefined };
  let action: ClaudeHookAction | null = null;
  await runSwallowing(CLAUDE_CODE, budget, async () => {
    action = claudeHookAction(parseJson(await readStdin(budget), "the hook input"));
    if (action.kind !== "approval") await runClaudeCodeHook(action, () => new HookReporter(budget), budget, noApproval);
  });
  const request = action as ClaudeHookAction | null;
  if (request?.kind !== "approval") return;
  const { waitSeconds, budget: waiting } = approvalBudget();
  // The decision is the one thing a hook prints: Claude Code reads it as the answer to its request.
  const decide = (decision: Record<string, unknown>) => void process.stdout.write(`${JSON.stringify(decision)}\n`);
  await runSwallowing(CLAUDE_CODE, waiting, () => runClaudeCodeHook(request, () => new HookReporter(waiting), waiting, { waitSeconds, decide }));
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what} is not JSON`);
  }
}

/** Stdin up to MAX_HOOK_INPUT_BYTES, within the budget; more is refused, not truncated. */
async function readStdin(budget: HookBudget): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const aborted = new Promise<never>((_, reject) => {
    budget.signal.addEventListener("abort", () => reject(new Error("the hook input did not end within the time budget")), { once: true });
  });
  aborted.catch(() => undefined);
  const read = (async () => {
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_HOOK_INPUT_BYTES) throw new Error(`the hook input is over ${MAX_HOOK_INPUT_BYTES} bytes`);
      chunks.push(chunk);
    }
  })();
  await Promise.race([read, aborted]);
  return Buffer.concat(chunks).toString("utf8");
}
