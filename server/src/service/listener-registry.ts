// The dispatch table of emitEvent: listeners keyed by event type. Adding one is a new module
// (server/src/background/listeners/) and one register() line at the composition root; nothing
// here or in the event service changes.
import type { Severity } from "../domain/enums.ts";
import type { EmittedEvent } from "../domain/event-input.ts";

/** Read-only look-ups a listener may need to decide whom to tell and what to say. */
export interface ListenerContext {
  engagement(id: string): Promise<{ id: string; name: string; operatorPersonId: string } | null>;
  members(engagementId: string): Promise<{ personId: string; role: string }[]>;
  personName(id: string): Promise<string | null>;
}

/** One notification a listener asks for; the event service raises it through the change path. */
export interface Raise {
  personId: string;
  /** De-duplicates per person: a trigger that fired for them never fires again. */
  triggerRef: string;
  title: string;
  body: string;
  severity?: Severity;
  engagementId: string | null;
}

export interface EventListener {
  /** Shown in emitEvent's result ("which listeners ran"). */
  name: string;
  type: string;
  /**
   * Decides the notifications for one event. Reads only: a ValidationError thrown here reaches
   * the producer before anything is recorded.
   */
  notify(event: EmittedEvent, context: ListenerContext): Promise<Raise[]>;
}

export class ListenerRegistry {
  private readonly table = new Map<string, EventListener[]>();

  register(listener: EventListener): this {
    const list = this.table.get(listener.type) ?? [];
    if (list.some((l) => l.name === listener.name)) throw new Error(`listener ${listener.name} is already registered for ${listener.type}`);
    this.table.set(listener.type, [...list, listener]);
    return this;
  }

  listenersFor(type: string): readonly EventListener[] {
    return this.table.get(type) ?? [];
  }
}
