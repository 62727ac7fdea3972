// Claude Code's PermissionRequest hook as a Herald question: the person allows or denies the tool
// call from the dashboard or any channel of theirs, and the hook answers the harness with its
// decision. With no answer within the wait (HERALD_APPROVAL_WAIT_SECONDS, default 50 s: below the
// 60 s `herald hooks install --approvals` gives the hook), the question is withdrawn and the hook
// prints nothing, so the harness asks in its terminal as it always did.
// Loaded only for a permission request: the answer stream's client stays off every other hook's path.
import { randomUUID } from "node:crypto";
import { sessionTitle } from "../../domain/session-title.ts";
import { answerActions, awaitAnswer } from "../mcp/ask.ts";
import { expire, publish } from "../mcp/operations.ts";
import type { HookBudget } from "./budget.ts";
import { attentionRequestId, bounded, type HookReporter } from "./report.ts";

/** The answers, in this order: the index of the person's choice is the decision. */
export const APPROVAL_CHOICES = ["Allow", "Deny"] as const;

export interface ApprovalRequest {
  harness: string;
  sessionId: string;
  cwd: string;
  toolName: string;
  toolInput: unknown;
}

/** What the person reads of the tool call: the command, the file, or the input as JSON. */
export function describeToolCall(toolName: string, toolInput: unknown): string {
  const input = (typeof toolInput === "object" && toolInput !== null ? toolInput : {}) as Record<string, unknown>;
  for (const field of ["command", "file_path", "url", "path", "pattern"]) {
    if (typeof input[field] === "string") return `${toolName}: ${input[field]}`;
  }
  return `${toolName}: ${JSON.stringify(toolInput) ?? ""}`;
}

/** Claude Code's answer to a PermissionRequest hook for the person's choice. */
export function permissionDecision(choice: number): Record<string, unknown> {
  const decision = choice === 0 ? { behavior: "allow" } : { behavior: "deny", message: "The person denied this from Herald." };
  return { hookSpecificOutput: { hookEventName: "PermissionRequest", decision } };
}

/** Asks the person; returns the decision to print, or null (no answer: the harness asks itself). */
export async function askApproval(
  request: ApprovalRequest,
  reporter: HookReporter,
  budget: HookBudget,
  waitSeconds: number,
): Promise<Record<string, unknown> | null> {
  const session = await reporter.session(request.harness, request.sessionId);
  const question = await publish(reporter.connection, {
    scope: "SESSION",
    sessionId: session.id,
    key: `approval-${randomUUID()}`,
    title: bounded(sessionTitle({ harness: request.harness, label: session.label, cwd: request.cwd }, `asks to use ${request.toolName}`), 200),
    body: bounded(describeToolCall(request.toolName, request.toolInput), 2_000),
    severity: "WARNING",
    source: { plugin: request.harness, subsystem: "approval" },
    // The session's next finished turn withdraws a question left open (as the attention is).
    retention: { policy: "UNTIL_REQUEST_COMPLETE", requestId: attentionRequestId(request.harness, request.sessionId) },
    actions: answerActions({ question: "", choices: [...APPROVAL_CHOICES] }),
  });
  const settings = { connection: reporter.connection, personId: "", plugin: request.harness };
  const outcome = await awaitAnswer(settings, question.id, waitSeconds * 1000, budget.signal);
  if (outcome.status === "answered" && outcome.choice) return permissionDecision(outcome.choice.index);
  // Unanswered: the terminal asks now, so the question leaves the person's inbox.
  await expire(reporter.connection, question.id).catch(() => undefined);
  return null;
}
