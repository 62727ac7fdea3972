// The one description of a committed notification event: what storage appends to the event log
// and reads back, what services publish on the bus, and what the feed hands to every stream.
// Protocol: docs/event-stream.md.
import type { NotificationEventType } from "../domain/enums.ts";

export interface CommittedEvent {
  /** Position in the event log; a stream's cursor is the last one its client has. */
  seq: number;
  /** null: every person (a global change of an APPLICATION notification). */
  personId: string | null;
  type: NotificationEventType;
  notificationId: string;
  revision: number;
  /** The record after the change, serialized (domain/notification-snapshot.ts); parsed once per event by its readers. */
  snapshot: string;
  /** Wall-clock time of the commit (epoch ms), for measuring fan-out lag; absent from older senders. */
  committedAt?: number;
}

/**
 * An event as a write hands it to the log, before the log numbers it (`seq`) and stamps its commit
 * time: the same shape, so the log's rows, the bus and the streams cannot name a field apart.
 */
export type EventToAppend = Omit<CommittedEvent, "seq" | "committedAt">;
