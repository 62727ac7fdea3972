// Reads of the append-only event log (writes happen in NotificationTx.apply).
import type { WireEvent } from "../events/bus.ts";
import type { Db } from "./database.ts";

export class EventLog {
  constructor(private readonly db: Db) {}

  async maxSeq(): Promise<number> {
    const row = await this.db.notificationEvent.findFirst({ orderBy: { seq: "desc" }, select: { seq: true } });
    return row?.seq ?? 0;
  }

  /** Every event after `seq`, in order (served by the primary key). */
  async readAfter(seq: number, limit: number): Promise<WireEvent[]> {
    const rows = await this.db.notificationEvent.findMany({ where: { seq: { gt: seq } }, orderBy: { seq: "asc" }, take: limit });
    return rows.map(toWire);
  }

  /** A person's stream after `seq`: their own events and the ones addressed to everyone. */
  async readForPerson(personId: string, seq: number, limit: number): Promise<WireEvent[]> {
    const rows = await this.db.notificationEvent.findMany({
      where: { seq: { gt: seq }, OR: [{ personId }, { personId: null }] },
      orderBy: { seq: "asc" },
      take: limit,
    });
    return rows.map(toWire);
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

function toWire(row: EventRow): WireEvent {
  return {
    seq: row.seq,
    personId: row.personId,
    type: row.type,
    notificationId: row.notificationId,
    revision: row.revision,
    snapshot: row.snapshot,
    committedAt: row.createdAt.getTime(),
  };
}
