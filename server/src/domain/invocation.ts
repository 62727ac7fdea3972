// A stored RUN_ACTION invocation and the rules of its acknowledgement. Pure.
import { validateActionDisplay, validateActionEffects, validateDisplayActions } from "./action-display.ts";
import type { Presentation, Variant } from "./enums.ts";
import { ValidationError } from "./errors.ts";
import type { JsonObject, JsonValue } from "./json.ts";
import type { Display, FollowUpAction } from "./notification.ts";

export const InvocationStates = ["PENDING", "ACKNOWLEDGED", "FAILED"] as const;
export type InvocationState = (typeof InvocationStates)[number];
export const InvocationOutcomes = ["ACKNOWLEDGED", "FAILED"] as const;
export type InvocationOutcome = (typeof InvocationOutcomes)[number];

export const invocationLimits = {
  messageLength: 500,
} as const;

export interface InvocationRecord {
  id: string;
  /** Position in the deployment-wide invocation sequence (cursors). */
  seq: number;
  notificationId: string;
  notificationKey: string;
  personId: string;
  plugin: string;
  actionId: string;
  targetActionId: string;
  fixedParams: JsonObject | null;
  values: JsonValue | null;
  state: InvocationState;
  message: string | null;
  /** The originating notification's display when it was invoked: a response keeps it. */
  presentation: Presentation;
  variant: Variant;
  /** The acknowledgement's direct display, resolved (action-display.ts); null when it sent none. */
  display: Display | null;
  /**
   * The direct display's follow-ups (empty without one): the person runs them with
   * invokeNotificationAction(invocationId), as the notification's own.
   */
  displayActions: FollowUpAction[];
  /** The acknowledgement's refresh effects: one-shot, for the page that ran the action. */
  uiEffects: JsonObject | null;
  createdAt: Date;
  acknowledgedAt: Date | null;
}

/** What a producer may send beside the outcome. */
export interface AckResponse {
  message?: unknown;
  display?: unknown;
  /** Follow-ups of the direct display. */
  actions?: unknown;
  uiEffects?: unknown;
}

export type AckDecision = { kind: "none"; current: InvocationRecord } | { kind: "settle"; next: InvocationRecord };

/**
 * The first acknowledgement settles an invocation; the same outcome again is a no-op (a
 * producer retrying after a lost answer), another outcome afterwards is refused: what the
 * person was shown does not flip.
 */
export function decideAcknowledge(current: InvocationRecord, outcome: InvocationOutcome, response: AckResponse, now: Date): AckDecision {
  // Checked before anything else: bad input is refused even on a repeat that would change nothing.
  const message = validateAckMessage(response.message);
  const displayActions = validateDisplayActions(response.actions, response.display);
  const display = validateActionDisplay(response.display, outcome === "FAILED", current.variant, displayActions);
  const uiEffects = validateActionEffects(response.uiEffects);
  if (current.state === outcome) return { kind: "none", current };
  if (current.state !== "PENDING") {
    throw new ValidationError("outcome", `outcome: the invocation is already ${current.state}`);
  }
  return { kind: "settle", next: { ...current, state: outcome, message, display, displayActions, uiEffects, acknowledgedAt: now } };
}

function validateAckMessage(message: unknown): string | null {
  if (message === undefined || message === null) return null;
  if (typeof message !== "string") throw new ValidationError("message", "message: must be text");
  if (message.length > invocationLimits.messageLength) {
    throw new ValidationError("message", `message: must be at most ${invocationLimits.messageLength} characters`);
  }
  return message;
}

export function isOutcome(value: unknown): value is InvocationOutcome {
  return (InvocationOutcomes as readonly unknown[]).includes(value);
}
