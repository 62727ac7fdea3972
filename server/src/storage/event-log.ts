// Reads of the append-only event log (writes happen in NotificationTx.apply).
import type { NotificationEventType } from "../domain/enums.ts";
import type { CommittedEvent } from "../events/committed-event.ts";
import type { EventLogReader } from "../events/event-log-reader.ts";
import type { Db } from "./database.ts";
import type { SqliteWriter } from "./sqlite-writer.ts";

export class EventLog implements EventLogReader {
  constructor(
    private readonly db: Db,
    /** SQLite: the connection itself, for the head every live-only stream reads as it opens. */
    private readonly sqlite: SqliteWriter | null = null,
  ) {}

  async maxSeq(): Promise<number> {
    if (this.sqlite) {
      const row = this.sqlite.prepare(`SELECT MAX("seq") AS "seq" FROM "NotificationEvent"`).get() as { seq: bigint | number | null } | undefined;
      return Number(row?.seq ?? 0);
    }
    const row = await this.db.notificationEvent.findFirst({ orderBy: { seq: "desc" }, select: { seq: true } });
    return row?.seq ?? 0;
  }

  /** Every event after `seq`, in order (served by the primary key). */
  async readAfter(seq: number, limit: number): Promise<CommittedEvent[]> {
    const rows = await this.db.notificationEvent.findMany({ where: { seq: { gt: seq } }, orderBy: { seq: "asc" }, take: limit });
    return rows.map(toCommitted);
  }

  /** A person's stream after `seq`: their own events and the ones addressed to everyone. */
  async readForPerson(personId: string, seq: number, limit: number): Promise<CommittedEvent[]> {
    const rows = await this.db.notificationEvent.findMany({
      where: { seq: { gt: seq }, OR: [{ personId }, { personId: null }] },
      orderBy: { seq: "asc" },
      take: limit,
    });
    return rows.map(toCommitted);
  }
}

interface EventRow {
  seq: number;
  personId: string | null;
  type: string;
  notificationId: string;
  revision: number;
  snapshot: string;
  createdAt: Date;
}

function toCommitted(row: EventRow): CommittedEvent {
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
