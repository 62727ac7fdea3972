// `herald hook claude-code`: Claude Code's command hook. The hook's JSON arrives on stdin.
// - Stop (the main thread finished a turn): report the exchange. The completion id is the
//   `uuid` of the turn's last assistant entry in the transcript (the turn of the payload's
//   prompt_id), so a Stop delivered twice, even after later turns, counts once. A turn
//   Claude Code started itself (after a background sub-agent) notifies without counting.
// - Notification that blocks on the person (a permission prompt, a question): the session's
//   attention notification (WARNING, key `attention`, revised in place); the next Stop expires it.
// - PermissionRequest (Claude asks to run a tool; installed with --approvals): a question with
//   Allow and Deny, whose answer is the hook's decision on stdout (approval.ts).
// - Anything from a sub-agent (SubagentStop, any event carrying agent_id), an idle reminder,
//   SessionEnd and every other event: nothing.
import type { HookBudget } from "./budget.ts";
import type { TranscriptTurn } from "./claude-transcript.ts";
import { readTurnOnceWritten } from "./claude-transcript-catch-up.ts";
import type { HookReporter } from "./report.ts";

export const HARNESS = "claude-code";

/** The most of the hook's budget spent waiting for the transcript to show the turn's answer; the rest is for the report. */
const TRANSCRIPT_WAIT_MS = 1_000;

/** Notification types where Claude waits on the person; the rest inform and need no attention. */
const BLOCKING_NOTIFICATIONS: Record<string, string> = {
  permission_prompt: "needs your permission",
  elicitation_dialog: "asks you a question",
  worker_permission_prompt: "needs your permission",
  agent_needs_input: "needs your input",
};

export type ClaudeHookAction =
  | { kind: "ignore"; reason: string }
  | { kind: "exchange"; sessionId: string; transcriptPath: string; cwd: string; promptId: string | null; lastAssistantMessage: string | null }
  | { kind: "attention"; sessionId: string; cwd: string; waits: string; body: string }
  | { kind: "approval"; sessionId: string; cwd: string; toolName: string; toolInput: unknown };

/** What a hook payload asks for; a payload that is not Claude Code's throws naming the field. */
export function claudeHookAction(payload: unknown): ClaudeHookAction {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) throw new Error("the hook input is not a JSON object");
  const p = payload as Record<string, unknown>;
  const event = p.hook_event_name;
  if (typeof event !== "string") throw new Error("the hook input has no hook_event_name");
  // The main thread's events carry no agent_id; a sub-agent's never change the session's labels.
  if (event === "SubagentStop" || p.agent_id !== undefined) return { kind: "ignore", reason: "a sub-agent's event" };
  if (event !== "Stop" && event !== "Notification" && event !== "PermissionRequest") return { kind: "ignore", reason: `${event} is not reported` };
  const sessionId = stringField(p, "session_id");
  const cwd = stringField(p, "cwd");
  if (event === "PermissionRequest") return { kind: "approval", sessionId, cwd, toolName: stringField(p, "tool_name"), toolInput: p.tool_input ?? null };
  if (event === "Stop") {
    const last = typeof p.last_assistant_message === "string" ? p.last_assistant_message : null;
    const promptId = typeof p.prompt_id === "string" && p.prompt_id !== "" ? p.prompt_id : null;
    return { kind: "exchange", sessionId, cwd, transcriptPath: stringField(p, "transcript_path"), promptId, lastAssistantMessage: last };
  }
  const type = typeof p.notification_type === "string" ? p.notification_type : "";
  const waits = BLOCKING_NOTIFICATIONS[type];
  if (!waits) return { kind: "ignore", reason: `a ${type || "untyped"} notification needs no attention` };
  const message = typeof p.message === "string" && p.message.trim() !== "" ? p.message.trim() : `Claude ${waits}.`;
  return { kind: "attention", sessionId, cwd, waits, body: message };
}

/** Runs a payload's action; `approval` is the decision to print for a permission request. */
export async function runClaudeCodeHook(
  action: ClaudeHookAction,
  reporter: () => HookReporter,
  budget: HookBudget,
  approval: { waitSeconds: number; decide: (decision: Record<string, unknown>) => void },
): Promise<void> {
  if (action.kind === "ignore") return;
  if (action.kind === "approval") {
    const { askApproval } = await import("./approval.ts");
    const decision = await askApproval({ harness: HARNESS, ...action }, reporter(), budget, approval.waitSeconds);
    if (decision) approval.decide(decision);
    return;
  }
  if (action.kind === "attention")
    return reporter().attention({ harness: HARNESS, sessionId: action.sessionId, cwd: action.cwd, waits: action.waits, body: action.body });
  let turn: TranscriptTurn;
  try {
    const query = { signal: budget.signal, ...(action.promptId ? { promptId: action.promptId } : {}) };
    const waitMs = Math.min(TRANSCRIPT_WAIT_MS, budget.remainingMs() / 2);
    turn = await readTurnOnceWritten(action.transcriptPath, { ...query, answer: action.lastAssistantMessage, waitMs });
  } catch (error) {
    if (budget.signal.aborted) throw error;
    // Without the transcript the exchange still notifies, but cannot count: no completion id.
    process.stderr.write(
      `herald hook ${HARNESS}: cannot read the transcript (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); reporting without a completion id\n`,
    );
    turn = { completionId: null, userText: "", assistantText: "", internal: false };
  }
  // When the transcript still does not show the answer the hook was given, its ids belong to an
  // earlier step or turn, and reporting them would make this turn a "retry" of that one. The
  // turn then notifies without counting.
  const last = action.lastAssistantMessage;
  const current = last === null || last.trim() === turn.assistantText.trim();
  // A turn Claude Code started itself (a background sub-agent finished) is not an exchange with
  // the person: it tells them the work ended, but counts nothing and names nothing.
  await reporter().exchange({
    harness: HARNESS,
    sessionId: action.sessionId,
    completionId: current && !turn.internal ? turn.completionId : null,
    cwd: action.cwd,
    userText: turn.internal ? "" : turn.userText,
    assistantText: last ?? turn.assistantText,
  });
}

function stringField(p: Record<string, unknown>, field: string): string {
  const value = p[field];
  if (typeof value !== "string" || value === "") throw new Error(`the hook input has no ${field}`);
  return value;
}
