// What a person sees with a filter, as SQL: a page of their notifications, their count, and the
// ids a batch operation acts on, over two sources, their own rows and the shared APPLICATION rows
// (with the person's receipt joined in), built by one class so the visibility rules are written
// once. A count and the batch ids are one statement each; a page is one per source, merged by
// mergePage (a list is the hottest read).
import type { Expression, ExpressionBuilder, SelectQueryBuilder, SqlBool } from "kysely";
import { type NotificationScope, type NotificationStatus, type Severity, TerminalStatuses } from "../../domain/enums.ts";
import type { EffectiveFilter, Position } from "../../domain/filter.ts";
import { type ReceiptMark, sharedViewCase } from "../../domain/shared-view.ts";
import type { Provider } from "../connection/database-url.ts";
import { tableColumns } from "../generated/columns.ts";
import { type ShapedRun, type Slot, shapedStatement, type Slots } from "../sql/shaped.ts";
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

/** What of a filter decides a list statement's text (enums, flags and the history limit): its shape. */
interface ListShape {
  statuses: readonly NotificationStatus[];
  scope: NotificationScope | null;
  includeSnoozed: boolean;
  includeStale: boolean;
  severities: readonly Severity[] | null;
  unread: boolean | null;
  historyLimit: number | null;
}

/** What of a filter a list statement binds: ids and plugin names (an empty id filters nothing, as null). */
interface ListValues {
  personId: string;
  sessionId: string | null;
  engagementId: string | null;
  plugins: readonly string[] | null;
  excludePlugins: readonly string[] | null;
  now: Date;
}

function listShape(f: EffectiveFilter, historyLimit: number | null): ListShape {
  const { statuses, scope, includeSnoozed, includeStale, severities, unread } = f;
  return { statuses, scope, includeSnoozed, includeStale, severities, unread, historyLimit };
}

function listValues(personId: string, f: EffectiveFilter, now: Date): ListValues {
  return { personId, sessionId: f.sessionId || null, engagementId: f.engagementId || null, plugins: f.plugins, excludePlugins: f.excludePlugins, now };
}

class Sources {
  readonly db: Builder;

  constructor(readonly provider: Provider) {
    this.db = sqlFor(provider);
  }

  /**
   * The rows a person sees with a filter, as at most two sources: their own rows, and the shared
   * APPLICATION rows with their receipt joined in. `extra` adds conditions to each source.
   */
  of(f: ListShape, v: Slots<ListValues>, extra: Condition[] = []): Source[] {
    const found: Source[] = [];
    const now = storedTime(this.provider, v.now);
    const content = [...this.content(f, v, now), ...withinHistory(f)];
    const notifications = this.db.selectFrom("Notification as n") as unknown as SourceQuery;
    if (f.scope !== "APPLICATION" && f.statuses.length > 0) {
      const where: Condition[] = [(eb) => eb("n.personId", "=", v.personId), (eb) => eb("n.status", "in", f.statuses)];
      if (f.scope) where.push((eb) => eb("n.scope", "=", f.scope!));
      if (v.sessionId) where.push((eb) => eb("n.sessionId", "=", v.sessionId!));
      where.push(...content, ...extra);
      if (!f.includeSnoozed) where.push((eb) => eb.or([eb("n.snoozedUntil", "is", null), eb("n.snoozedUntil", "<=", now)]));
      if (f.unread !== null) where.push((eb) => eb("n.readAt", f.unread ? "is" : "is not", null));
      found.push({ from: notifications, where, shared: false });
    }
    if ((!f.scope || f.scope === "APPLICATION") && !v.sessionId && f.statuses.length > 0) {
      const from = notifications.leftJoin("NotificationReceipt as r", (join) =>
        join.onRef("r.notificationId", "=", "n.id").on("r.personId", "=", v.personId),
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
      if (!f.includeSnoozed) where.push((eb) => eb.or([eb("r.snoozedUntil", "is", null), eb("r.snoozedUntil", "<=", now)]));
      // No receipt: unread (the LEFT JOIN gives a NULL readAt).
      if (f.unread !== null) where.push((eb) => eb("r.readAt", f.unread ? "is" : "is not", null));
      found.push({ from, where, shared: true });
    }
    return found;
  }

  /** Engagement, severity and plugin filters and the TTL: plain columns of the record, the same for every reader. */
  private content(f: ListShape, v: Slots<ListValues>, now: Expression<Date>): Condition[] {
    const where: Condition[] = [];
    if (v.engagementId) where.push((eb) => eb("n.engagementId", "=", v.engagementId!));
    if (f.severities) where.push((eb) => eb("n.severity", "in", f.severities!));
    if (v.plugins) where.push((eb) => eb("n.sourcePlugin", "in", v.plugins!));
    if (v.excludePlugins) where.push((eb) => eb("n.sourcePlugin", "not in", v.excludePlugins!));
    if (!f.includeStale) where.push((eb) => eb.or([eb("n.expiresAt", "is", null), eb("n.expiresAt", ">", now)]));
    return where;
  }

  /** The page's keyset bounds. */
  keyset(v: Slots<PageValues>): Condition[] {
    // The plain range bound beside the OR is what lets both databases use the (…, createdAt, id)
    // index as a range; the OR alone is applied as a filter after a scan.
    const bound =
      (at: Slot<Date>, id: Slot<string>, cmp: "<" | ">"): Condition =>
      (eb) => {
        const createdAt = storedTime(this.provider, at);
        return eb.and([
          eb("n.createdAt", `${cmp}=`, createdAt),
          eb.or([eb("n.createdAt", cmp, createdAt), eb.and([eb("n.createdAt", "=", createdAt), eb("n.id", cmp, id)])]),
        ]);
      };
    const where: Condition[] = [];
    if (v.afterAt && v.afterId) where.push(bound(v.afterAt, v.afterId, "<"));
    if (v.beforeAt && v.beforeId) where.push(bound(v.beforeAt, v.beforeId, ">"));
    return where;
  }
}

/**
 * The history limit, at once: a terminal record with `historyLimit` newer terminal ones in its
 * scope target is past it, and left out (the pruner deletes it once its events are past the
 * retention). Asked only of lists that may hold terminal records; the probe reads at most
 * `historyLimit` entries of the (targetKey, activeKey, createdAt, id) index.
 */
function withinHistory(f: ListShape): Condition[] {
  const historyLimit = f.historyLimit;
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

interface PageShape extends ListShape {
  inverted: boolean;
  /** The Notification columns read (null: all). */
  columns: readonly string[] | null;
}

interface PageValues extends ListValues {
  afterAt: Date | null;
  afterId: string | null;
  beforeAt: Date | null;
  beforeId: string | null;
  limit: number;
}

/** One source's part of a page: its rows in page order, at most the page's size, the reader's receipt joined to shared ones. */
const sourcePageOf = shapedStatement<PageShape & { shared: boolean }, PageValues>((provider, shape, v) => {
  const sources = new Sources(provider);
  const source = sources.of(shape, v, sources.keyset(v)).find((s) => s.shared === shape.shared);
  if (!source) return null;
  const direction = shape.inverted ? "asc" : "desc";
  const receipt = source.shared ? tableColumns.NotificationReceipt.columns.map((column) => sql.ref(`r.${column}`).as(`r_${column}`)) : [];
  return filtered(source)
    .select([...(shape.columns ?? tableColumns.Notification.columns).map((column) => sql.ref(`n.${column}`).as(column)), ...receipt])
    .orderBy("n.createdAt", direction)
    .orderBy("n.id", direction)
    .limit(v.limit);
});

/**
 * A page as one statement per source (the person's own rows; the shared rows with their receipt),
 * each read in page order from its own index and limited to the page's size; mergePage takes the
 * page from their rows. One statement that merged them (a UNION ALL of the sources' keys, then the
 * rows by id) spent about as long again on its temporary sorts and the second read of each row.
 * `columns`: the Notification columns to read (null: all of them), which a list that shows a few
 * fields keeps to (a whole row is most of a statement's time).
 */
export function pageStatements(
  provider: Provider,
  personId: string,
  f: EffectiveFilter,
  page: PageWindow,
  now: Date,
  historyLimit: number | null = null,
  columns: readonly (keyof Row<"Notification">)[] | null = null,
): ShapedRun[] {
  const shape = { ...listShape(f, historyLimit), inverted: page.inverted, columns };
  const values = {
    ...listValues(personId, f, now),
    afterAt: page.after?.createdAt ?? null,
    afterId: page.after?.id ?? null,
    beforeAt: page.before?.createdAt ?? null,
    beforeId: page.before?.id ?? null,
    limit: Math.trunc(page.limit),
  };
  return [false, true].flatMap((shared) => sourcePageOf(provider, { ...shape, shared }, values) ?? []);
}

/**
 * The page from its sources' rows, each already in page order: newest first (createdAt, then id,
 * descending), or oldest first when `inverted`, at most `limit`. Ids compare as SQLite's BINARY
 * collation compares them (code units); the two orders can differ only between rows of the two
 * sources created in the same millisecond whose ids a PostgreSQL collation orders otherwise, which
 * the ids Herald makes (lower-case letters and digits, row-id.ts) never are.
 */
export function mergePage(parts: readonly PageRow[][], inverted: boolean, limit: number): PageRow[] {
  if (parts.length === 1) return parts[0]!.slice(0, limit);
  const sign = inverted ? 1 : -1;
  return parts
    .flat()
    .sort((a, b) => sign * (a.row.createdAt.getTime() - b.row.createdAt.getTime() || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0)))
    .slice(0, limit);
}

const countOf = shapedStatement<ListShape, ListValues>((provider, shape, v) => {
  const sources = new Sources(provider);
  const counts = sources.of(shape, v).map((source) => filtered(source).select((eb) => eb.fn.countAll().as("c")));
  if (counts.length === 0) return null;
  return sources.db.selectNoFrom(sql<number>`${sql.join(counts, sql` + `)}`.as("n"));
});

/** How many rows the person sees: one COUNT per source, summed in the same statement (column "n"). */
export function countStatement(provider: Provider, personId: string, f: EffectiveFilter, now: Date, historyLimit: number | null = null): ShapedRun | null {
  return countOf(provider, listShape(f, historyLimit), listValues(personId, f, now));
}

const visibleIdsOf = shapedStatement<ListShape, ListValues & { limit: number }>((provider, shape, v) => {
  const sources = new Sources(provider);
  const db = sources.db;
  const parts = sources.of(shape, v).map((source, i) => db.selectFrom(filtered(source).select("n.id").limit(v.limit).as(`part${i}`)).selectAll());
  if (parts.length === 0) return null;
  return parts.slice(1).reduce((union, part) => union.unionAll(part), parts[0]!);
});

/** Ids of the rows the person sees, at most `limit` from each source (column "id"). */
export function visibleIdsStatement(
  provider: Provider,
  personId: string,
  f: EffectiveFilter,
  now: Date,
  limit: number,
  historyLimit: number | null = null,
): ShapedRun | null {
  return visibleIdsOf(provider, listShape(f, historyLimit), { ...listValues(personId, f, now), limit: Math.trunc(limit) });
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
