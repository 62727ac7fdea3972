// What a person stream holds back for quiet mode and quiet hours: the notifications created while
// quiet, with everything that happens to them, until quiet ends. Everything else about the
// person's notifications keeps streaming. The client's cursor carries the hold, so a client that
// reconnects while (or after) the stream held gets exactly what it has not had: nothing twice,
// nothing skipped (docs/event-stream.md, "Quiet mode").
import type { StreamPosition } from "../domain/stream-position.ts";

export type { StreamPosition };

/** The lowest event a stream resuming from `position` reads again (the history limit's check). */
export const readsFrom = (position: StreamPosition): number => position.hold?.from ?? position.seq;

/**
 * One stream's hold. A notification is held when its CREATED event comes after `from`: the
 * same rule live and when a client resumes from a cursor (which re-reads the log from `from`),
 * whatever the reader controls say by then.
 */
export class QuietHold {
  /** Notifications created after `from` (the held ones), learnt from their CREATED events. */
  private readonly created = new Set<string>();

  constructor(
    readonly from: number,
    /** Held events up to here have been released. */
    public through: number,
  ) {}

  /** Notes a CREATED event after `from`; returns whether the event's notification is held. */
  holds(type: string, notificationId: string): boolean {
    if (type === "CREATED") this.created.add(notificationId);
    return this.created.has(notificationId);
  }

  position(seq: number): StreamPosition {
    return { seq, hold: { from: this.from, through: this.through } };
  }
}
