// Fan-out of committed events to whoever listens in this process. Only committed events are
// published: services call publish() after their transaction has returned.
import type { StoredEvent } from "../storage/notification-store.ts";

export type EventListener = (event: StoredEvent) => void;

export interface EventBus {
  publish(events: readonly StoredEvent[]): void;
  subscribe(listener: EventListener): () => void;
}

export class InMemoryEventBus implements EventBus {
  private readonly listeners = new Set<EventListener>();

  publish(events: readonly StoredEvent[]): void {
    for (const event of events) {
      for (const listener of this.listeners) listener(event);
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
