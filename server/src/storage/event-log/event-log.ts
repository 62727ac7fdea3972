// Reads of the append-only event log (writes happen in NotificationTx.apply).
import type { NotificationEventType } from "../../domain/enums.ts";
import type { CommittedEvent } from "../../events/committed-event.ts";
import type { EventLogReader } from "../../events/event-log-reader.ts";
import type { Row } from "../sql/stored-values.ts";
import * as run from "../sql/run.ts";
import type { Database } from "../connection/database.ts";

export class EventLog implements EventLogReader {
  constructor(private readonly database: Database) {}

  async maxSeq(): Promise<number> {
    const [row] = await run.raw(
      this.database.db,
      this.database.build.selectFrom("NotificationEvent").select((eb) => eb.fn.max("seq").as("seq")),
    );
    return Number(row?.seq ?? 0);
  }

  /** Every event after `seq`, in order (served by the primary key). */
  async readAfter(seq: number, limit: number): Promise<CommittedEvent[]> {
    const rows = await run.rows(this.database.db, "NotificationEvent", this.after(seq).orderBy("seq", "asc").limit(limit));
    return rows.map(toCommitted);
  }

  /** A person's stream after `seq`: their own events and the ones addressed to everyone. */
  async readForPerson(personId: string, seq: number, limit: number): Promise<CommittedEvent[]> {
    const query = this.after(seq)
      .where((eb) => eb.or([eb("personId", "=", personId), eb("personId", "is", null)]))
      .orderBy("seq", "asc")
      .limit(limit);
    const rows = await run.rows(this.database.db, "NotificationEvent", query);
    return rows.map(toCommitted);
  }

  private after(seq: number) {
    return this.database.build.selectFrom("NotificationEvent").selectAll().where("seq", ">", seq);
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
