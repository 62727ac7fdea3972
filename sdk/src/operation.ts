// How a client shows a notification's operation (long-running work) from its typed fields
// alone: labels and free text are the producer's wording and decide nothing.
import { isTerminal } from "./filter.ts";
import type { FormField, Notification } from "./types.ts";

type Action = Notification["actions"][number];

/**
 * The states a producer reports when its operation has ended. `operation.state` is the
 * producer's own string; these are the ones Herald documents as final (compared exactly).
 */
export const FINISHED_OPERATION_STATES: readonly string[] = ["done", "completed", "succeeded", "failed", "cancelled"];

/**
 * The operation's Cancel follow-up: offered only while the operation says it is cancellable and
 * the record is active, and it is the RUN_ACTION whose `fixedParams.operationId` names this
 * operation occurrence (so a Cancel left over from an earlier occurrence is never offered).
 */
export function cancelActionOf(n: Notification): Action | undefined {
  const operation = n.operation;
  if (!operation?.cancellable || isTerminal(n)) return undefined;
  return n.actions.find((a) => a.kind === "RUN_ACTION" && operationIdOf(a.fixedParams) === operation.id);
}

/** The operation has ended: the notification is terminal, or its producer reported a final state. */
export function isOperationFinished(n: Notification): boolean {
  return isTerminal(n) || (n.operation?.state != null && FINISHED_OPERATION_STATES.includes(n.operation.state));
}

function operationIdOf(params: unknown): unknown {
  return params !== null && typeof params === "object" ? (params as Record<string, unknown>).operationId : undefined;
}

/** The form of a RUN_ACTION follow-up, or null when it runs without one. */
export function formOf(action: Notification["actions"][number]): FormField[] | null {
  return Array.isArray(action.form) && action.form.length > 0 ? (action.form as FormField[]) : null;
}

/**
 * What a filled-in form sends: a checkbox as true or false, a number field as a number, other
 * fields as their text; a field left empty is left out (the server applies `required`).
 */
export function formValues(fields: readonly FormField[], values: Record<string, unknown>): Record<string, unknown> {
  const submitted: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.type === "BOOLEAN") submitted[field.name] = value === true;
    else if (typeof value === "string" && value !== "") submitted[field.name] = field.type === "NUMBER" ? Number(value) : value;
  }
  return submitted;
}
