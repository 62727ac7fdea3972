// The scanner's selections: one page of dated facts or of engagement activity per statement, and
// the anti-join that leaves out triggers that fired. Built here (sql.ts) and run through a
// RawReader, so the same statements run on the server's connection or on the selection thread's
// own connection (background/scanner/selection-thread.ts).
import type { Compilable, RawBuilder } from "kysely";
import type { Provider } from "../connection/database-url.ts";
import { type Builder, sql, sqlFor } from "../sql/sql.ts";
import { storedDate } from "../sql/stored-values.ts";

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
  private readonly db: Builder;

  constructor(
    private readonly provider: Provider,
    private readonly reader: RawReader,
  ) {
    this.db = sqlFor(provider);
  }

  /** One page of facts that mention dates, of persons not in quiet mode, in id order. */
  async datedFacts(afterId: string | null, limit: number): Promise<DatedFact[]> {
    let query = this.db
      .selectFrom("RememberedFact as f")
      .innerJoin("Person as p", "p.id", "f.personId")
      .select(["f.id", "f.personId", "f.content", "f.dateRules", "p.quietHours"])
      .where("f.hasDates", "=", this.flag(true))
      .where("p.quietMode", "=", this.flag(false));
    if (afterId !== null) query = query.where("f.id", ">", afterId);
    return (await this.read(query.orderBy("f.id").limit(Math.trunc(limit)))) as unknown as DatedFact[];
  }

  /**
   * One page of engagements whose operator is not in quiet mode, in id order, each with its
   * latest activity, or its creation when it has none. Every path that touches an engagement
   * counts: events, new members, remembered facts, its notifications' latest change (a producer's
   * revision or a reader's seen, read, dismissal or snooze, all of which move `updatedAt`), a
   * reader's receipt of a shared one, and follow-ups run or acknowledged. Herald's own time-based
   * notifications are left out: a nudge about silence, or reading it, is not activity. One
   * statement per page: each correlated MAX reads one engagement's rows through an index.
   */
  async engagementActivity(afterId: string | null, limit: number): Promise<EngagementActivity[]> {
    let query = this.db
      .selectFrom("Engagement as e")
      .innerJoin("Person as p", "p.id", "e.operatorPersonId")
      .select((eb) => [
        "e.id",
        "e.name",
        "e.operatorPersonId",
        "e.createdAt",
        eb
          .selectFrom("CompanionEvent as x")
          .select((x) => x.fn.max("x.receivedAt").as("at"))
          .whereRef("x.engagementId", "=", "e.id")
          .as("a"),
        eb
          .selectFrom("EngagementMember as m")
          .select((m) => m.fn.max("m.createdAt").as("at"))
          .whereRef("m.engagementId", "=", "e.id")
          .as("b"),
        eb
          .selectFrom("RememberedFact as r")
          .select((r) => r.fn.max("r.createdAt").as("at"))
          .whereRef("r.engagementId", "=", "e.id")
          .as("c"),
        eb
          .selectFrom("Notification as n")
          .select((n) => n.fn.max("n.updatedAt").as("at"))
          .whereRef("n.engagementId", "=", "e.id")
          .where("n.triggerType", "<>", sql.lit("TIME_BASED"))
          .as("d"),
        eb
          .selectFrom("NotificationReceipt as rc")
          .innerJoin("Notification as rn", "rn.id", "rc.notificationId")
          .select((rc) => rc.fn.max("rc.updatedAt").as("at"))
          .whereRef("rn.engagementId", "=", "e.id")
          .where("rn.triggerType", "<>", sql.lit("TIME_BASED"))
          .as("f"),
        eb
          .selectFrom("ActionInvocation as i")
          .innerJoin("Notification as inv", "inv.id", "i.notificationId")
          .select((i) => i.fn.max(i.fn.coalesce("i.acknowledgedAt", "i.createdAt")).as("at"))
          .whereRef("inv.engagementId", "=", "e.id")
          .as("g"),
      ])
      .where("p.quietMode", "=", this.flag(false));
    if (afterId !== null) query = query.where("e.id", ">", afterId);
    const rows = await this.read(query.orderBy("e.id").limit(Math.trunc(limit)));
    return rows.map((row) => {
      let last = storedDate(row.createdAt)!;
      for (const at of [row.a, row.b, row.c, row.d, row.f, row.g].map(storedDate)) if (at && at > last) last = at;
      return { id: String(row.id), name: String(row.name), operatorPersonId: String(row.operatorPersonId), lastActivity: last };
    });
  }

  /**
   * The given dedup keys that have no notification yet: one anti-join for any number of keys
   * (passed as one JSON parameter), so a steady cycle never reads back what already fired.
   */
  async unfired(dedupKeys: readonly string[]): Promise<Set<string>> {
    if (dedupKeys.length === 0) return new Set();
    const keys = JSON.stringify(dedupKeys);
    const source = this.provider === "postgresql" ? sql`jsonb_array_elements_text(CAST(${keys} AS jsonb)) AS k(value)` : sql`json_each(${keys}) AS k`;
    const query = this.db
      .selectFrom(sql<{ key: string }>`(SELECT k.value AS "key" FROM ${source})`.as("q"))
      .select("q.key")
      .where((eb) => eb.not(eb.exists(eb.selectFrom("Notification as n").select(sql.lit(1).as("one")).whereRef("n.dedupKey", "=", "q.key"))));
    const rows = await this.read(query);
    return new Set(rows.map((r) => String(r.key)));
  }

  /** A boolean as the store keeps it (SQLite: 0 or 1), as a literal so the planner sees it. */
  private flag(value: boolean): RawBuilder<boolean> {
    return this.provider === "postgresql" ? sql.lit(value) : (sql.lit(value ? 1 : 0) as unknown as RawBuilder<boolean>);
  }

  private read(query: Compilable): Promise<RawRows> {
    const { sql: text, parameters } = query.compile();
    return this.reader(text, parameters);
  }
}
