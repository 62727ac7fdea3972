// What every agent-harness hook promises its harness: it never slows or fails the agent. The whole
// run (reading the payload, the transcript and every request) fits one time budget; any failure
// is swallowed and told once on stderr; the exit code is 0 and nothing reaches stdout, which some
// harnesses read as the hook's answer. The one exception is a permission request (approval.ts):
// its budget is the wait for the person, and its stdout is the person's decision.

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
  return budgetOf(ms, now);
}

/** How long a permission request waits for the person's answer when HERALD_APPROVAL_WAIT_SECONDS does not say. */
export const DEFAULT_APPROVAL_WAIT_SECONDS = 50;
const MAX_APPROVAL_WAIT_SECONDS = 3_600;
/** A permission request's budget beyond the wait: asking, and withdrawing an unanswered question. */
const APPROVAL_SLACK_MS = 5_000;

/** The wait (seconds; 0 asks without waiting) and the whole budget of a permission request. */
export function approvalBudget(env: NodeJS.ProcessEnv = process.env, now: () => number = Date.now): { waitSeconds: number; budget: HookBudget } {
  const asked = Number(env.HERALD_APPROVAL_WAIT_SECONDS);
  const waitSeconds = Number.isInteger(asked) && asked >= 0 ? Math.min(asked, MAX_APPROVAL_WAIT_SECONDS) : DEFAULT_APPROVAL_WAIT_SECONDS;
  return { waitSeconds, budget: budgetOf(waitSeconds * 1000 + APPROVAL_SLACK_MS, now) };
}

function budgetOf(ms: number, now: () => number = Date.now): HookBudget {
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
