// The answers to actions this client ran. When an invocation it started settles (seen by any of
// its live views, in an event or a snapshot), its refresh effects run once through the client's
// ui-effects dispatcher and listeners hear of it once. A client that did not run the action
// (another tab, the same page after a reload) hears nothing: a direct display belongs to the
// surface that ran the action, and is never shown twice (docs/decisions.md, "Direct action displays").
import type { ActionInvocation, ActionResponse, Notification } from "./types.ts";
import type { UiEffectsDispatcher } from "./ui-effects.ts";

type Answer = Pick<ActionInvocation, "id" | "state" | "outcomeMessage" | "display" | "actions" | "uiEffects">;
type Listener = (response: ActionResponse) => void;

/** Settled invocations kept while their invoke call may still be answering. */
const EARLY_KEPT = 50;

export class ActionResponses {
  private readonly awaited = new Set<string>();
  /** A fast producer's answer can arrive on the stream before invokeAction's own answer. */
  private readonly early = new Map<string, ActionResponse>();
  private readonly listeners = new Set<Listener>();

  constructor(private readonly effects: UiEffectsDispatcher) {}

  /** Hears each answer to an action this client ran, once. Returns a function that stops it. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** An invocation this client just made (invokeAction calls it). */
  await(notificationId: string, invocation: Answer): void {
    if (invocation.state !== "PENDING") return this.deliver(toResponse(notificationId, invocation));
    const early = this.early.get(invocation.id);
    this.early.delete(invocation.id);
    if (early) this.deliver(early);
    else this.awaited.add(invocation.id);
  }

  /** Every record a live view of this client observes. */
  observe(notification: Pick<Notification, "id" | "lastInvocation">): void {
    const invocation = notification.lastInvocation;
    if (!invocation || invocation.state === "PENDING") return;
    if (this.awaited.delete(invocation.id)) return this.deliver(toResponse(notification.id, invocation));
    if (this.early.has(invocation.id)) return;
    this.early.set(invocation.id, toResponse(notification.id, invocation));
    if (this.early.size > EARLY_KEPT) this.early.delete(this.early.keys().next().value!);
  }

  private deliver(response: ActionResponse) {
    this.effects.observeResponse(response.invocationId, response.uiEffects);
    for (const listener of this.listeners) listener(response);
  }
}

function toResponse(notificationId: string, invocation: Answer): ActionResponse {
  return {
    invocationId: invocation.id,
    notificationId,
    state: invocation.state as ActionResponse["state"],
    message: invocation.outcomeMessage ?? null,
    display: invocation.display ?? null,
    actions: invocation.actions ?? [],
    uiEffects: invocation.uiEffects ?? null,
  };
}
