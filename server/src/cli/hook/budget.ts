// What every agent-harness hook promises its harness: it never slows or fails the agent. The whole
// run (reading the payload, the transcript and every request) fits one time budget; any failure
// is swallowed and told once on stderr; the exit code is 0 and nothing reaches stdout, which some
// harnesses read as the hook's answer.

/** The most a hook may take, from start to exit (HERALD_HOOK_TIMEOUT_MS lowers or raises it, up to 10 s). */
export const DEFAULT_HOOK_BUDGET_MS = 2_000;
const MAX_HOOK_BUDGET_MS = 10_000;

export interface HookBudget {
  /** Aborts when the budget is spent: pass it to every request and read. */
  signal: AbortSignal;
  /** Milliseconds left, never below 0. */
  remainingMs(): number;
}

export function hookBudget(env: NodeJS.ProcessEnv = process.env, now: () => number = Date.now): HookBudget {
  const asked = Number(env.HERALD_HOOK_TIMEOUT_MS);
  const ms = Number.isInteger(asked) && asked > 0 ? Math.min(asked, MAX_HOOK_BUDGET_MS) : DEFAULT_HOOK_BUDGET_MS;
  const end = now() + ms;
  return { signal: AbortSignal.timeout(ms), remainingMs: () => Math.max(0, end - now()) };
}

const GAVE_UP = "gave up: the hook's time budget ran out";

/** Runs a hook: its failure becomes one stderr line, never an exit code or an exception. */
export async function runSwallowing(harness: string, budget: HookBudget, work: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  // Work that ignores the signal (a stuck read) still cannot hold the harness past the budget.
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), budget.remainingMs() + 50);
  });
  try {
    const outcome = await Promise.race([work().then(() => "done" as const), late]);
    if (outcome === "late") tell(harness, GAVE_UP);
  } catch (error) {
    const name = (error as Error).name;
    tell(harness, name === "TimeoutError" || name === "AbortError" ? GAVE_UP : (error as Error).message);
  } finally {
    clearTimeout(timer);
  }
}

/** The one line a hook prints when it could not do its work; it never carries a secret. */
export function tell(harness: string, message: string): void {
  process.stderr.write(`herald hook ${harness}: ${message.replace(/\s+/g, " ").slice(0, 500)}\n`);
}
