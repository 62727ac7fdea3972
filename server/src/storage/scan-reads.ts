// The scanner's selections: one page of dated facts or of engagement activity per statement, and
// the anti-join that leaves out triggers that fired. Plain SQL through a RawReader, so the same
// statements run on the server's Prisma client or on the selection thread's own connection
// (background/scanner/selection-thread.ts).
import type { Provider } from "./database-url.ts";
import { storedDate } from "./stored-date.ts";

export type RawRows = Record<string, unknown>[];

/** Runs one read-only statement with positional parameters. */
export type RawReader = (sql: string, params: readonly unknown[]) => Promise<RawRows>;

export interface DatedFact {
  id: string;
  personId: string;
  content: string;
  dateRules: string;
  /** The person's quiet hours as stored (JSON text, or null): their time zone is in there. */
  quietHours: string | null;
}

export interface EngagementActivity {
  id: string;
  name: string;
  operatorPersonId: string;
  /** The latest activity, or the engagement's creation when it has none. */
  lastActivity: Date;
}

export class ScanReads {
  private readonly sql: { postgres: boolean; true: string; false: string; param(n: number): string };

  constructor(
    provider: Provider,
    private readonly read: RawReader,
  ) {
    const postgres = provider === "postgresql";
    this.sql = { postgres, true: postgres ? "true" : "1", false: postgres ? "false" : "0", param: (n) => (postgres ? `$${n}` : "?") };
  }

  /** One page of facts that mention dates, of persons not in quiet mode, in id order. */
  async datedFacts(afterId: string | null, limit: number): Promise<DatedFact[]> {
    const rows = await this.read(
      `SELECT f."id", f."personId", f."content", f."dateRules", p."quietHours" FROM "RememberedFact" f JOIN "Person" p ON p."id" = f."personId"
       WHERE f."hasDates" = ${this.sql.true} AND p."quietMode" = ${this.sql.false} ${afterId === null ? "" : `AND f."id" > ${this.sql.param(1)}`}
       ORDER BY f."id" LIMIT ${Math.trunc(limit)}`,
      afterId === null ? [] : [afterId],
    );
    return rows as unknown as DatedFact[];
  }

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
