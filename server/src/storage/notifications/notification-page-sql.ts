// What a person sees with a filter, as SQL: a page of their notifications, their count, and the
// ids a batch operation acts on. Each is one statement over two sources, their own rows and the
// shared APPLICATION rows (with the person's receipt joined in), so the visibility rules are
// written once. A list is the hottest read: one statement where the model API cost three
// (the own rows, the shared rows, their receipts) and most of the request's CPU.
import type { Compilable, Expression, ExpressionBuilder, SelectQueryBuilder, SqlBool } from "kysely";
import { TerminalStatuses } from "../../domain/enums.ts";
import type { EffectiveFilter, Position } from "../../domain/filter.ts";
import { type ReceiptMark, sharedViewCase } from "../../domain/shared-view.ts";
import type { Provider } from "../connection/database-url.ts";
import { tableColumns } from "../generated/columns.ts";
import { type Builder, type DB, sql, sqlFor, storedTime } from "../sql/sql.ts";
import { decodeInPlace, type Row } from "../sql/stored-values.ts";

export interface PageWindow {
  after: Position | null;
  before: Position | null;
  limit: number;
  inverted: boolean;
}

/** A notification row with the reader's receipt of it (shared rows only; null where they have none). */
export interface PageRow {
  row: Row<"Notification">;
  receipt: Row<"NotificationReceipt"> | null;
}

/** The tables a source reads: the record as n, the reader's receipt as r (absent for their own rows). */
type Tables = DB & { n: DB["Notification"]; r: DB["NotificationReceipt"] };
type Eb = ExpressionBuilder<Tables, "n" | "r">;
type Condition = (eb: Eb) => Expression<SqlBool>;
type SourceQuery = SelectQueryBuilder<Tables, "n" | "r", object>;

/** One source of a person's visible rows: its FROM (with the receipt join) and WHERE conditions. */
interface Source {
  from: SourceQuery;
  where: Condition[];
  /** Whether the receipt is joined (the shared rows) or selected as typed NULLs (their own). */
  shared: boolean;
}

class Sources {
  readonly time: (value: Date) => Expression<Date>;

  constructor(
    readonly db: Builder,
    provider: Provider,
  ) {
    this.time = (value) => storedTime(provider, value);
  }

  /**
   * The rows a person sees with a filter, as at most two sources: their own rows, and the shared
   * APPLICATION rows with their receipt joined in. `extra` adds conditions to each source.
   */
  of(personId: string, f: EffectiveFilter, now: Date, historyLimit: number | null, extra: Condition[] = []): Source[] {
    const found: Source[] = [];
    const content = [...this.content(f, now), ...withinHistory(f, historyLimit)];
    const notifications = this.db.selectFrom("Notification as n") as unknown as SourceQuery;
    if (f.scope !== "APPLICATION" && f.statuses.length > 0) {
      const where: Condition[] = [(eb) => eb("n.personId", "=", personId), (eb) => eb("n.status", "in", f.statuses)];
      if (f.scope) where.push((eb) => eb("n.scope", "=", f.scope!));
      if (f.sessionId) where.push((eb) => eb("n.sessionId", "=", f.sessionId!));
      where.push(...content, ...extra);
      if (!f.includeSnoozed) where.push((eb) => eb.or([eb("n.snoozedUntil", "is", null), eb("n.snoozedUntil", "<=", this.time(now))]));
      if (f.unread !== null) where.push((eb) => eb("n.readAt", f.unread ? "is" : "is not", null));
      found.push({ from: notifications, where, shared: false });
    }
    if ((!f.scope || f.scope === "APPLICATION") && !f.sessionId && f.statuses.length > 0) {
      const from = notifications.leftJoin("NotificationReceipt as r", (join) =>
        join.onRef("r.notificationId", "=", "n.id").on("r.personId", "=", personId),
      ) as SourceQuery;
      // A person's status of a shared record, as the domain's case table states it (domain/shared-view.ts).
      const byStatus = (eb: Eb) =>
        eb.or(
          f.statuses.map((status) => {
            const { record, receipt } = sharedViewCase(status);
            const marks = Object.entries(receipt).map(([column, set]) => eb(`r.${column as ReceiptMark}`, set ? "is not" : "is", null));
            return eb.and([
              record.length === 1
                ? eb("n.status", "=", sql.lit(record[0]!))
                : eb(
                    "n.status",
                    "in",
                    record.map((s) => sql.lit(s)),
                  ),
              ...marks,
            ]);
          }),
        );
      const where: Condition[] = [(eb) => eb("n.scope", "=", sql.lit("APPLICATION")), byStatus, ...content, ...extra];
      if (!f.includeSnoozed) where.push((eb) => eb.or([eb("r.snoozedUntil", "is", null), eb("r.snoozedUntil", "<=", this.time(now))]));
      // No receipt: unread (the LEFT JOIN gives a NULL readAt).
      if (f.unread !== null) where.push((eb) => eb("r.readAt", f.unread ? "is" : "is not", null));
      found.push({ from, where, shared: true });
    }
    return found;
  }

  /** Engagement, severity and plugin filters and the TTL: plain columns of the record, the same for every reader. */
  private content(f: EffectiveFilter, now: Date): Condition[] {
    const where: Condition[] = [];
    if (f.engagementId) where.push((eb) => eb("n.engagementId", "=", f.engagementId!));
    if (f.severities) where.push((eb) => eb("n.severity", "in", f.severities!));
    if (f.plugins) where.push((eb) => eb("n.sourcePlugin", "in", f.plugins!));
    if (f.excludePlugins) where.push((eb) => eb("n.sourcePlugin", "not in", f.excludePlugins!));
    if (!f.includeStale) where.push((eb) => eb.or([eb("n.expiresAt", "is", null), eb("n.expiresAt", ">", this.time(now))]));
    return where;
  }

  /** The page's keyset bounds. */
  keyset(page: PageWindow): Condition[] {
    // The plain range bound beside the OR is what lets both databases use the (…, createdAt, id)
    // index as a range; the OR alone is applied as a filter after a scan.
    const bound =
      (position: Position, cmp: "<" | ">"): Condition =>
      (eb) =>
        eb.and([
          eb("n.createdAt", `${cmp}=`, this.time(position.createdAt)),
          eb.or([
            eb("n.createdAt", cmp, this.time(position.createdAt)),
            eb.and([eb("n.createdAt", "=", this.time(position.createdAt)), eb("n.id", cmp, position.id)]),
          ]),
        ]);
    const where: Condition[] = [];
    if (page.after) where.push(bound(page.after, "<"));
    if (page.before) where.push(bound(page.before, ">"));
    return where;
  }
}

/**
 * The history limit, at once: a terminal record with `historyLimit` newer terminal ones in its
 * scope target is past it, and left out (the pruner deletes it once its events are past the
 * retention). Asked only of lists that may hold terminal records; the probe reads at most
 * `historyLimit` entries of the (targetKey, activeKey, createdAt, id) index.
 */
function withinHistory(f: EffectiveFilter, historyLimit: number | null): Condition[] {
  if (historyLimit === null || !f.statuses.some((s) => TerminalStatuses.includes(s))) return [];
  if (historyLimit === 0) return [(eb) => eb("n.activeKey", "is not", null)];
  return [
    (eb) =>
      eb.or([
        eb("n.activeKey", "is not", null),
        eb.not(
          eb.exists(
            eb
              .selectFrom("Notification as h")
              .select(sql.lit(1).as("one"))
              .whereRef("h.targetKey", "=", "n.targetKey")
              .where("h.activeKey", "is", null)
              .whereRef("h.createdAt", ">=", "n.createdAt")
              .where((h) =>
                h.or([h("h.createdAt", ">", h.ref("n.createdAt")), h.and([h("h.createdAt", "=", h.ref("n.createdAt")), h("h.id", ">", h.ref("n.id"))])]),
              )
              .limit(1)
              .offset(Math.trunc(historyLimit) - 1),
          ),
        ),
      ]),
  ];
}

function filtered(source: Source): SourceQuery {
  return source.from.where((eb) => eb.and(source.where.map((condition) => condition(eb))));
}

/**
 * A page in two steps: the keys of the page (id, createdAt, and whether the row is shared), each
 * source read by its own index-ordered keyset query and merged by UNION ALL; then the page's
 * rows by id, with the reader's receipt joined to the shared ones. The merge sorts narrow keys,
 * not whole rows (sorting the 2 × limit whole rows cost about a third of the statement), and
 * reads each row of the page once. `columns`: the Notification columns to read (null: all of them),
 * which a list that shows a few fields keeps to (a whole row is most of the statement's time).
 */
export function pageStatement(
  provider: Provider,
  personId: string,
  f: EffectiveFilter,
  page: PageWindow,
  now: Date,
  historyLimit: number | null = null,
  columns: readonly (keyof Row<"Notification">)[] | null = null,
): Compilable | null {
  const sources = new Sources(sqlFor(provider), provider);
  const direction = page.inverted ? "asc" : "desc";
  const limit = Math.trunc(page.limit);
  const parts = sources.of(personId, f, now, historyLimit, sources.keyset(page)).map((source) =>
    filtered(source)
      .select(["n.id", "n.createdAt", sql.lit(source.shared ? 1 : 0).as("shared")])
      .orderBy("n.createdAt", direction)
      .orderBy("n.id", direction)
      .limit(limit),
  );
  if (parts.length === 0) return null;
  const db = sources.db;
  // SQLite takes no ORDER BY or LIMIT on a compound's members: each is a subquery of its own.
  const [first, ...rest] = parts.map((part, i) => db.selectFrom(part.as(`part${i}`)).selectAll());
  const keys =
    rest.length === 0
      ? parts[0]!
      : (db
          .selectFrom(rest.reduce((union, part) => union.unionAll(part), first!).as("merged"))
          .selectAll()
          .orderBy("createdAt", direction)
          .orderBy("id", direction)
          .limit(limit) as unknown as (typeof parts)[number]);
  return db
    .selectFrom(keys.as("k"))
    .innerJoin("Notification as n", "n.id", "k.id")
    .leftJoin("NotificationReceipt as r", (join) => join.on("k.shared", "=", sql.lit(1)).onRef("r.notificationId", "=", "n.id").on("r.personId", "=", personId))
    .select((columns ?? tableColumns.Notification.columns).map((column) => sql.ref(`n.${column}`).as(column)))
    .select(tableColumns.NotificationReceipt.columns.map((column) => sql.ref(`r.${column}`).as(`r_${column}`)))
    .orderBy("k.createdAt", direction)
    .orderBy("k.id", direction);
}

/** How many rows the person sees: one COUNT per source, summed in the same statement (column "n"). */
export function countStatement(provider: Provider, personId: string, f: EffectiveFilter, now: Date, historyLimit: number | null = null): Compilable | null {
  const sources = new Sources(sqlFor(provider), provider);
  const counts = sources.of(personId, f, now, historyLimit).map((source) => filtered(source).select((eb) => eb.fn.countAll().as("c")));
  if (counts.length === 0) return null;
  return sources.db.selectNoFrom(sql<number>`${sql.join(counts, sql` + `)}`.as("n"));
}

/** Ids of the rows the person sees, at most `limit` from each source (column "id"). */
export function visibleIdsStatement(
  provider: Provider,
  personId: string,
  f: EffectiveFilter,
  now: Date,
  limit: number,
  historyLimit: number | null = null,
): Compilable | null {
  const sources = new Sources(sqlFor(provider), provider);
  const db = sources.db;
  const parts = sources
    .of(personId, f, now, historyLimit)
    .map((source, i) => db.selectFrom(filtered(source).select("n.id").limit(Math.trunc(limit)).as(`part${i}`)).selectAll());
  if (parts.length === 0) return null;
  return parts.slice(1).reduce((union, part) => union.unionAll(part), parts[0]!);
}

/** A raw result row as the models type it: times as Dates, the receipt ("r_" columns) split off. */
export function toPageRow(raw: Record<string, unknown>): PageRow {
  const row: Record<string, unknown> = {};
  const receipt: Record<string, unknown> = {};
  for (const column in raw) {
    // "r_": no column of Notification starts so.
    if (column.charCodeAt(0) === 114 && column.charCodeAt(1) === 95) receipt[column.slice(2)] = raw[column];
    else row[column] = raw[column];
  }
  const hasReceipt = receipt.notificationId !== null && receipt.notificationId !== undefined;
  return { row: decodeInPlace("Notification", row), receipt: hasReceipt ? decodeInPlace("NotificationReceipt", receipt) : null };
}
