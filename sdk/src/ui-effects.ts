// Applies notification UI effects as docs/api.md ("UI effects") describes them: once per
// (connection, notification id, revision), never for terminal revisions, not inherited by later
// revisions (the server already strips them), unknown fields ignored, and every invalidation
// kept pending until a consumer reports a successful reload. An action response's effects go
// the same way, once per invocation.
import { isTerminal } from "./filter.ts";
import type { Notification } from "./types.ts";

export type Invalidation = { kind: "session"; sessionId: string } | { kind: "sessionsList" } | { kind: "applicationActions" };

/** Reloads authoritative data; resolving acknowledges the invalidation, rejecting keeps it pending. */
export type Reload = (invalidation: Invalidation) => Promise<void> | void;

const keyOf = (i: Invalidation) => (i.kind === "session" ? `session:${i.sessionId}` : i.kind);

export class UiEffectsDispatcher {
  private readonly considered = new Set<string>();
  private readonly pendingInvalidations = new Map<string, Invalidation>();
  private readonly consumers = new Map<string, Set<Reload>>();
  private readonly reloading = new Set<string>();

  /** Call with every revision observed on this connection (snapshot and events alike). */
  observe(notification: Pick<Notification, "id" | "revision" | "status" | "uiEffects">): void {
    const key = `${notification.id}:${notification.revision}`;
    if (this.considered.has(key)) return;
    this.considered.add(key);
    if (isTerminal(notification)) return;
    this.route(notification.uiEffects);
  }

  /**
   * An action response's effects (acknowledgeActionInvocation's uiEffects): one-shot, not
   * revisioned, so considered once per invocation; parsed and routed as a notification's.
   */
  observeResponse(invocationId: string, uiEffects: unknown): void {
    const key = `invocation:${invocationId}`;
    if (this.considered.has(key)) return;
    this.considered.add(key);
    this.route(uiEffects);
  }

  /** Invalidations not yet acknowledged. */
  pending(): Invalidation[] {
    return [...this.pendingInvalidations.values()];
  }

  /**
   * A mounted consumer of one kind of data. It receives what is pending now and what arrives
   * later; returns a function to call on unmount.
   */
  mount(target: Invalidation, reload: Reload): () => void {
    const key = keyOf(target);
    let set = this.consumers.get(key);
    if (!set) this.consumers.set(key, (set = new Set()));
    set.add(reload);
    this.deliver(key);
    return () => set.delete(reload);
  }

  private route(uiEffects: unknown) {
    for (const invalidation of parseEffects(uiEffects)) {
      this.pendingInvalidations.set(keyOf(invalidation), invalidation);
      this.deliver(keyOf(invalidation));
    }
  }

  private deliver(key: string) {
    const invalidation = this.pendingInvalidations.get(key);
    const consumers = this.consumers.get(key);
    if (!invalidation || !consumers?.size || this.reloading.has(key)) return;
    this.reloading.add(key);
    void Promise.allSettled([...consumers].map(async (reload) => reload(invalidation))).then((results) => {
      this.reloading.delete(key);
      // One successful reload of authoritative data satisfies the invalidation.
      if (results.some((r) => r.status === "fulfilled") && this.pendingInvalidations.get(key) === invalidation) {
        this.pendingInvalidations.delete(key);
      } else if (this.pendingInvalidations.get(key) !== invalidation) {
        this.deliver(key); // a newer one arrived meanwhile
      }
    });
  }
}

function parseEffects(effects: unknown): Invalidation[] {
  if (!effects || typeof effects !== "object" || Array.isArray(effects)) return [];
  const e = effects as Record<string, unknown>;
  const result: Invalidation[] = [];
  if (Array.isArray(e.reload_session_ids)) {
    for (const id of e.reload_session_ids) if (typeof id === "string" && id) result.push({ kind: "session", sessionId: id });
  }
  if (e.reload_sessions_list === true) result.push({ kind: "sessionsList" });
  if (e.reload_application_actions === true) result.push({ kind: "applicationActions" });
  return result;
}
