// Reads of the append-only event log (writes happen in NotificationTx.apply).
import type { NotificationEventType } from "../../domain/enums.ts";
import type { CommittedEvent } from "../../events/committed-event.ts";
import type { EventLogReader } from "../../events/event-log-reader.ts";
import { keptStatement } from "../sql/queries.ts";
import { StoreBase } from "../sql/store-base.ts";
import type { Row } from "../sql/stored-values.ts";

// The head every live-only stream reads as it opens, compiled once.
const MAX_SEQ = keptStatement((b) => b.selectFrom("NotificationEvent").select((eb) => eb.fn.max("seq").as("seq")));

export class EventLog extends StoreBase implements EventLogReader {
  async maxSeq(): Promise<number> {
    const [row] = await this.q.kept(this.db, MAX_SEQ);
    return Number(row?.seq ?? 0);
  }

  /** Every event after `seq`, in order (served by the primary key). */
  async readAfter(seq: number, limit: number): Promise<CommittedEvent[]> {
    const rows = await this.q.rows(this.db, "NotificationEvent", this.after(seq).orderBy("seq", "asc").limit(limit));
    return rows.map(toCommitted);
  }

  /** A person's stream after `seq`: their own events and the ones addressed to everyone. */
  async readForPerson(personId: string, seq: number, limit: number): Promise<CommittedEvent[]> {
    const query = this.after(seq)
      .where((eb) => eb.or([eb("personId", "=", personId), eb("personId", "is", null)]))
      .orderBy("seq", "asc")
      .limit(limit);
    const rows = await this.q.rows(this.db, "NotificationEvent", query);
    return rows.map(toCommitted);
  }

  private after(seq: number) {
    return this.q.build.selectFrom("NotificationEvent").selectAll().where("seq", ">", seq);
  }
}

function toCommitted(row: Row<"NotificationEvent">): CommittedEvent {
  return {
    seq: row.seq,
    personId: row.personId,
    type: row.type as NotificationEventType,
    notificationId: row.notificationId,
    revision: row.revision,
    snapshot: row.snapshot,
    committedAt: row.createdAt.getTime(),
  };
}
