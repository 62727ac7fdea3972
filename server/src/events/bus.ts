// Messages between the processes of a deployment: committed notification events (carrying the
// event-log sequence number), quiet-mode changes, action invocations and revoked credentials
// (every instance ends their open streams). The bus may lose or reorder messages (Redis outage,
// several publishers); realtime/event-feed.ts restores order from the log.
// A message is JSON on the wire (redis-bus.ts): old and new instances share it during a rolling
// deploy, so its fields only ever grow, optionally. Protocol: docs/event-stream.md.
import type { InvocationRecord } from "../domain/invocation.ts";
import type { CommittedEvent } from "./committed-event.ts";

/** An action invocation committed: its position and plugin (readers load it from storage). */
export type ActionInvocationMessage = Pick<InvocationRecord, "id" | "seq" | "plugin">;

export type BusMessage =
  // queuedDeliveries: whether the change put a channel delivery in the outbox (absent: unknown, as from older senders).
  | { kind: "event"; event: CommittedEvent; queuedDeliveries?: boolean }
  // Any change of the person's preferences (reader controls included): listeners read them afresh.
  | { kind: "quiet"; personId: string; quietMode: boolean }
  | { kind: "invocation"; invocation: ActionInvocationMessage }
  | { kind: "revoked"; credentialIds: string[] };

export type BusListener = (message: BusMessage) => void;

export interface EventBus {
  /** Fire and forget: a failed publish must not fail the committed change (the log has it). */
  publish(message: BusMessage): void;
  subscribe(listener: BusListener): () => void;
  /** Called after the bus lost messages it could not deliver (e.g. Redis reconnected). */
  onResync(listener: () => void): () => void;
  close(): Promise<void>;
}

export class InMemoryEventBus implements EventBus {
  private readonly listeners = new Set<BusListener>();

  publish(message: BusMessage): void {
    for (const listener of this.listeners) listener(message);
  }

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onResync(): () => void {
    return () => undefined; // nothing is ever lost in memory
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
