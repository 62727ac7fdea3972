// What the companion reads and writes besides notifications: recorded engine events, the
// scanner's lease, and the selections of its two scans (dated facts, engagement activity).
import { type Db, isUniqueViolation, type Provider } from "./database.ts";
import type { RawRows } from "./sqlite-read-thread.ts";

export interface RecordedEvent {
  id: string;
  type: string;
  listeners: string[];
  notificationIds: string[];
}

export interface NewEvent {
  type: string;
  payload: string;
  engagementId: string | null;
  actorPersonId: string | null;
  occurredAt: Date;
  receivedAt: Date;
  idempotencyKey: string | null;
}

export interface DatedFact {
  id: string;
  personId: string;
  content: string;
  dateRules: string;
}

export interface EngagementActivity {
  id: string;
  name: string;
  operatorPersonId: string;
  /** The latest activity, or the engagement's creation when it has none. */
  lastActivity: Date;
}

/** Runs one read-only statement; the scans' selections go through it (see the constructor). */
export type RawReader = (sql: string, params: readonly unknown[]) => Promise<RawRows>;

export class CompanionStore {
  private readonly read: RawReader;
  private readonly sql: { postgres: boolean; true: string; false: string; param(n: number): string };

  /**
   * `reader` runs the scans' selections: on SQLite, a read thread of its own (sqlite-read-thread.ts)
   * keeps these long reads off the request thread. Without one they run on this client.
   */
  constructor(
    private readonly db: Db,
    provider: Provider,
    reader?: RawReader,
  ) {
    const postgres = provider === "postgresql";
    this.sql = { postgres, true: postgres ? "true" : "1", false: postgres ? "false" : "0", param: (n) => (postgres ? `$${n}` : "?") };
    this.read = reader ?? ((sql, params) => db.$queryRawUnsafe<RawRows>(sql, ...params));
  }

  // ---- emitted events ----------------------------------------------------------------------

  async findEvent(idempotencyKey: string): Promise<RecordedEvent | null> {
    const row = await this.db.companionEvent.findUnique({ where: { idempotencyKey } });
    return row ? toRecorded(row) : null;
  }

  /** Records an event; null when another call already recorded the same idempotencyKey. */
  async recordEvent(event: NewEvent): Promise<RecordedEvent | null> {
    try {
      return toRecorded(await this.db.companionEvent.create({ data: event }));
    } catch (error) {
      if (event.idempotencyKey !== null && isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async completeEvent(id: string, listeners: string[], notificationIds: string[]): Promise<void> {
    await this.db.companionEvent.update({
      where: { id },
      data: { listeners: JSON.stringify(listeners), notificationIds: JSON.stringify(notificationIds) },
    });
  }

  // ---- the scanner's lease -----------------------------------------------------------------

  /**
   * Claims the cycle that starts at `cycleStart`: true for exactly one caller per cycle, on
   * either provider (a conditional UPDATE of one row is atomic on both).
   */
  async claimCycle(name: string, cycleStart: Date, holder: string, now: Date): Promise<boolean> {
    await this.db.scannerLease
      .create({ data: { name, cycleStart: new Date(0), holder: "", claimedAt: now } })
      .catch((error: unknown) => {
        if (!isUniqueViolation(error)) throw error;
      });
    const { count } = await this.db.scannerLease.updateMany({
      where: { name, cycleStart: { lt: cycleStart } },
      data: { cycleStart, holder, claimedAt: now },
    });
    return count === 1;
  }

  // ---- the time-based scan -----------------------------------------------------------------

  /** Facts whose dates were extracted by an older extractor (or by none: rows from before it). */
  factsToExtract(version: number, limit: number) {
    return this.db.rememberedFact.findMany({
      where: { datesVersion: { lt: version } },
      select: { id: true, content: true, createdAt: true },
      take: limit,
    });
  }

  async setFactDates(id: string, dateRules: string, hasDates: boolean, version: number): Promise<void> {
    await this.db.rememberedFact.update({ where: { id }, data: { dateRules, hasDates, datesVersion: version } });
  }

  /** One page of facts that mention dates, of persons not in quiet mode, in id order. */
  async datedFacts(afterId: string | null, limit: number): Promise<DatedFact[]> {
    const rows = await this.read(
      `SELECT f."id", f."personId", f."content", f."dateRules" FROM "RememberedFact" f JOIN "Person" p ON p."id" = f."personId"
       WHERE f."hasDates" = ${this.sql.true} AND p."quietMode" = ${this.sql.false} ${afterId === null ? "" : `AND f."id" > ${this.sql.param(1)}`}
       ORDER BY f."id" LIMIT ${Math.trunc(limit)}`,
      afterId === null ? [] : [afterId],
    );
    return rows as unknown as DatedFact[];
  }

  // ---- the concern-based scan --------------------------------------------------------------

  /**
   * One page of engagements whose operator is not in quiet mode, in id order, each with its
   * latest activity: events, new members, remembered facts and notifications (except Herald's
   * own time-based ones: a nudge about silence is not activity), or its creation when it has
   * none. One statement per page: each correlated MAX is an index range read.
   */
  async engagementActivity(afterId: string | null, limit: number): Promise<EngagementActivity[]> {
    const rows = await this.read(
      `SELECT e."id", e."name", e."operatorPersonId", e."createdAt",
         (SELECT MAX(x."receivedAt") FROM "CompanionEvent" x WHERE x."engagementId" = e."id") AS "a",
         (SELECT MAX(m."createdAt") FROM "EngagementMember" m WHERE m."engagementId" = e."id") AS "b",
         (SELECT MAX(r."createdAt") FROM "RememberedFact" r WHERE r."engagementId" = e."id") AS "c",
         (SELECT MAX(n."createdAt") FROM "Notification" n WHERE n."engagementId" = e."id" AND n."triggerType" <> 'TIME_BASED') AS "d"
       FROM "Engagement" e JOIN "Person" p ON p."id" = e."operatorPersonId"
       WHERE p."quietMode" = ${this.sql.false} ${afterId === null ? "" : `AND e."id" > ${this.sql.param(1)}`}
       ORDER BY e."id" LIMIT ${Math.trunc(limit)}`,
      afterId === null ? [] : [afterId],
    );
    return rows.map((row) => {
      let last = storedDate(row.createdAt)!;
      for (const at of [row.a, row.b, row.c, row.d].map(storedDate)) if (at && at > last) last = at;
      return { id: String(row.id), name: String(row.name), operatorPersonId: String(row.operatorPersonId), lastActivity: last };
    });
  }

  // ---- both scans --------------------------------------------------------------------------

  /**
   * The given dedup keys that have no notification yet: one anti-join for any number of keys
   * (passed as one JSON parameter), so a steady cycle never reads back what already fired.
   */
  async unfired(dedupKeys: readonly string[]): Promise<Set<string>> {
    if (dedupKeys.length === 0) return new Set();
    const keys = this.sql.postgres
      ? `SELECT k.value AS "key" FROM jsonb_array_elements_text($1::jsonb) AS k(value)`
      : `SELECT k.value AS "key" FROM json_each(?) AS k`;
    const rows = await this.read(
      `SELECT q."key" FROM (${keys}) q WHERE NOT EXISTS (SELECT 1 FROM "Notification" n WHERE n."dedupKey" = q."key")`,
      [JSON.stringify(dedupKeys)],
    );
    return new Set(rows.map((r) => String(r.key)));
  }

}

/**
 * A timestamp from a raw query: a Date where the driver typed the column, else the stored form
 * (SQLite keeps ISO-8601 text by default, or epoch milliseconds); stored times are UTC.
 */
function storedDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value));
  const text = String(value).replace(" ", "T");
  return new Date(/(Z|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text}Z`);
}

function toRecorded(row: { id: string; type: string; listeners: string; notificationIds: string }): RecordedEvent {
  return { id: row.id, type: row.type, listeners: JSON.parse(row.listeners) as string[], notificationIds: JSON.parse(row.notificationIds) as string[] };
}
