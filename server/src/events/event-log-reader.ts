// What the event path reads from the append-only event log. Storage implements it
// (storage/event-log/event-log.ts); events/ knows only this interface, so the dependency runs one way.
import type { CommittedEvent } from "./committed-event.ts";

export interface EventLogReader {
  /** The last committed sequence number (0: none yet). */
  maxSeq(): Promise<number>;
  /** Every event after `seq`, in order, at most `limit`. */
  readAfter(seq: number, limit: number): Promise<CommittedEvent[]>;
  /** A person's stream after `seq`: their own events and the ones addressed to everyone, in order. */
  readForPerson(personId: string, seq: number, limit: number): Promise<CommittedEvent[]>;
}
