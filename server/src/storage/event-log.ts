// Reads of the append-only event log (writes happen in NotificationTx.apply).
import type { NotificationEventType } from "../domain/enums.ts";
import type { CommittedEvent } from "../events/committed-event.ts";
import type { EventLogReader } from "../events/event-log-reader.ts";
import type { Database, Db } from "./database.ts";
import type { Queries } from "./queries.ts";
import { sqlFor } from "./sql.ts";
import type { SqliteStore } from "./sqlite-store.ts";
import type { Row } from "./stored-values.ts";

// The head on SQLite's own connection: one constant statement, compiled once.
const SQLITE_MAX_SEQ = sqlFor("sqlite")
  .selectFrom("NotificationEvent")
  .select((eb) => eb.fn.max("seq").as("seq"))
  .compile();

export class EventLog implements EventLogReader {
  private readonly db: Db;
  private readonly q: Queries;
  /** SQLite: the connection itself, for the head every live-only stream reads as it opens. */
  private readonly sqlite: SqliteStore | null;

  constructor(database: Database) {
    this.db = database.db;
    this.q = database.queries;
    this.sqlite = database.sqlite;
  }

  async maxSeq(): Promise<number> {
    if (this.sqlite) {
      const row = this.sqlite.prepare(SQLITE_MAX_SEQ.sql).get(...SQLITE_MAX_SEQ.parameters) as { seq: bigint | number | null } | undefined;
      return Number(row?.seq ?? 0);
    }
    const row = await this.q.first(this.db, "NotificationEvent", this.q.build.selectFrom("NotificationEvent").select("seq").orderBy("seq", "desc").limit(1));
    return row?.seq ?? 0;
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
