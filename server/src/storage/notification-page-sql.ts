// What a person sees with a filter, as SQL: a page of their notifications, their count, and the
// ids a batch operation acts on. Each is one statement over two sources, their own rows and the
// shared APPLICATION rows (with the person's receipt joined in), so the visibility rules are
// written once. A list is the hottest read: one statement where the query builder cost three
// (the own rows, the shared rows, their receipts) and most of the request's CPU.
import { TerminalStatuses } from "../domain/enums.ts";
import type { EffectiveFilter, Position } from "../domain/filter.ts";
import type { Provider } from "./database-url.ts";
import type { Notification as NotificationRow, NotificationReceipt as ReceiptRow } from "./prisma-client/sqlite/client.ts";
import { RECEIPT_COLUMNS, RECEIPT_DATE_COLUMNS, toNotificationRow, toReceiptRow } from "./raw-rows.ts";

export interface PageWindow {
  after: Position | null;
  before: Position | null;
  limit: number;
  inverted: boolean;
}

/** A notification row with the reader's receipt of it (shared rows only; null where they have none). */
export interface PageRow {
  row: NotificationRow;
  receipt: ReceiptRow | null;
}

class Params {
  readonly values: unknown[] = [];
  constructor(private readonly provider: Provider) {}

  add(value: unknown): string {
    this.values.push(value);
    return this.provider === "postgresql" ? `$${this.values.length}` : "?";
  }

  /** A time as the store compares it: SQLite keeps DateTime as ISO-8601 text with "+00:00". */
  time(value: Date): string {
    if (this.provider === "postgresql") return `CAST(${this.add(value.toISOString())} AS timestamp(3))`;
    return this.add(value.toISOString().replace("Z", "+00:00"));
  }

  list(values: readonly string[]): string {
    return `(${values.map((v) => this.add(v)).join(", ")})`;
  }
}

/** One source of a person's visible rows: its FROM clause (with the receipt join) and WHERE conditions. */
interface Source {
  from: string;
  where: string[];
  /** The receipt's columns as selected beside the row (typed NULLs for the person's own rows). */
  receipt: string;
}

/**
 * The rows a person sees with a filter, as at most two sources: their own rows, and the shared
 * APPLICATION rows with their receipt joined in. Conditions are added in the order they appear in
 * the text, as SQLite's positional parameters require; `extra` adds conditions to each source.
 */
function sources(p: Params, personId: string, f: EffectiveFilter, now: Date, historyLimit: number | null, extra: () => string[] = () => []): Source[] {
  const found: Source[] = [];
  const content = () => [...contentConditions(p, f, now), ...withinHistory(f, historyLimit)];
  if (f.scope !== "APPLICATION" && f.statuses.length > 0) {
    const where = [`n."personId" = ${p.add(personId)}`, `n."status" IN ${p.list(f.statuses)}`];
    if (f.scope) where.push(`n."scope" = ${p.add(f.scope)}`);
    if (f.sessionId) where.push(`n."sessionId" = ${p.add(f.sessionId)}`);
    where.push(...content(), ...extra());
    if (!f.includeSnoozed) where.push(`(n."snoozedUntil" IS NULL OR n."snoozedUntil" <= ${p.time(now)})`);
    if (f.unread !== null) where.push(`n."readAt" IS ${f.unread ? "" : "NOT "}NULL`);
    found.push({ from: `"Notification" n`, where, receipt: RECEIPT_NULLS });
  }
  if ((!f.scope || f.scope === "APPLICATION") && !f.sessionId && f.statuses.length > 0) {
    const from = `"Notification" n LEFT JOIN "NotificationReceipt" r ON r."notificationId" = n."id" AND r."personId" = ${p.add(personId)}`;
    const byStatus = f.statuses.map((status) => {
      switch (status) {
        case "RESOLVED":
        case "EXPIRED":
          return `n."status" = ${p.add(status)}`;
        case "DISMISSED":
          return `(n."status" = 'PENDING' AND r."dismissedAt" IS NOT NULL)`;
        case "SEEN":
          return `(n."status" = 'PENDING' AND r."dismissedAt" IS NULL AND r."seenAt" IS NOT NULL)`;
        case "DELIVERED":
          return `(n."status" = 'PENDING' AND r."dismissedAt" IS NULL AND r."seenAt" IS NULL AND r."deliveredAt" IS NOT NULL)`;
        case "PENDING":
          return `(n."status" = 'PENDING' AND r."dismissedAt" IS NULL AND r."seenAt" IS NULL AND r."deliveredAt" IS NULL)`;
      }
    });
    const where = [`n."scope" = 'APPLICATION'`, `(${byStatus.join(" OR ")})`, ...content(), ...extra()];
    if (!f.includeSnoozed) where.push(`(r."snoozedUntil" IS NULL OR r."snoozedUntil" <= ${p.time(now)})`);
    // No receipt: unread (the LEFT JOIN gives a NULL readAt).
    if (f.unread !== null) where.push(`r."readAt" IS ${f.unread ? "" : "NOT "}NULL`);
    found.push({ from, where, receipt: RECEIPT_SELECTED });
  }
  return found;
}

// Typed NULLs: PostgreSQL will not UNION an untyped NULL (text) with the receipt's timestamps.
const RECEIPT_NULLS = RECEIPT_COLUMNS.map((c) => `CAST(NULL AS ${(RECEIPT_DATE_COLUMNS as readonly string[]).includes(c) ? "timestamp(3)" : "text"}) AS "r_${c}"`).join(", ");
const RECEIPT_SELECTED = RECEIPT_COLUMNS.map((c) => `r."${c}" AS "r_${c}"`).join(", ");

export interface Statement {
  sql: string;
  params: unknown[];
}

/** A page: each source read by its own index-ordered keyset query, merged by UNION ALL. */
export function pageStatement(provider: Provider, personId: string, f: EffectiveFilter, page: PageWindow, now: Date, historyLimit: number | null = null): Statement | null {
  const p = new Params(provider);
  const direction = page.inverted ? "ASC" : "DESC";
  const order = (table: string) => `ORDER BY ${table}"createdAt" ${direction}, ${table}"id" ${direction}`;
  const limit = Math.trunc(page.limit);
  const parts = sources(p, personId, f, now, historyLimit, () => keyset(p, page)).map(
    (source) => `SELECT n.*, ${source.receipt} FROM ${source.from} WHERE ${source.where.join(" AND ")} ${order("n.")} LIMIT ${limit}`,
  );
  if (parts.length === 0) return null;
  const sql = parts.length === 1 ? parts[0]! : `SELECT * FROM (${parts.map((s, i) => `SELECT * FROM (${s}) AS part${i}`).join(" UNION ALL ")}) AS merged ${order("")} LIMIT ${limit}`;
  return { sql, params: p.values };
}

/** How many rows the person sees: one COUNT per source, summed in the same statement (column "n"). */
export function countStatement(provider: Provider, personId: string, f: EffectiveFilter, now: Date, historyLimit: number | null = null): Statement | null {
  const p = new Params(provider);
  const parts = sources(p, personId, f, now, historyLimit).map((source) => `(SELECT COUNT(*) FROM ${source.from} WHERE ${source.where.join(" AND ")})`);
  if (parts.length === 0) return null;
  return { sql: `SELECT ${parts.join(" + ")} AS "n"`, params: p.values };
}

/** Ids of the rows the person sees, at most `limit` from each source (column "id"). */
export function visibleIdsStatement(
  provider: Provider,
  personId: string,
  f: EffectiveFilter,
  now: Date,
  limit: number,
  historyLimit: number | null = null,
): Statement | null {
  const p = new Params(provider);
  const parts = sources(p, personId, f, now, historyLimit).map((source) => `SELECT * FROM (SELECT n."id" FROM ${source.from} WHERE ${source.where.join(" AND ")} LIMIT ${Math.trunc(limit)}) AS part`);
  if (parts.length === 0) return null;
  return { sql: parts.join(" UNION ALL "), params: p.values };
}

/**
 * The history limit, at once: a terminal record with `historyLimit` newer terminal ones in its
 * scope target is past it, and left out (the pruner deletes it once its events are past the
 * retention). Asked only of lists that may hold terminal records; the probe reads at most
 * `historyLimit` entries of the (targetKey, activeKey, createdAt, id) index.
 */
function withinHistory(f: EffectiveFilter, historyLimit: number | null): string[] {
  if (historyLimit === null || !f.statuses.some((s) => TerminalStatuses.includes(s))) return [];
  if (historyLimit === 0) return [`n."activeKey" IS NOT NULL`];
  const newer = `SELECT 1 FROM "Notification" h WHERE h."targetKey" = n."targetKey" AND h."activeKey" IS NULL AND h."createdAt" >= n."createdAt" AND (h."createdAt" > n."createdAt" OR (h."createdAt" = n."createdAt" AND h."id" > n."id")) LIMIT 1 OFFSET ${Math.trunc(historyLimit) - 1}`;
  return [`(n."activeKey" IS NOT NULL OR NOT EXISTS (${newer}))`];
}

/** Engagement, severity and plugin filters and the TTL: plain columns of the record, the same for every reader. */
function contentConditions(p: Params, f: EffectiveFilter, now: Date): string[] {
  const where: string[] = [];
  if (f.engagementId) where.push(`n."engagementId" = ${p.add(f.engagementId)}`);
  if (f.severities) where.push(`n."severity" IN ${p.list(f.severities)}`);
  if (f.plugins) where.push(`n."sourcePlugin" IN ${p.list(f.plugins)}`);
  if (f.excludePlugins) where.push(`n."sourcePlugin" NOT IN ${p.list(f.excludePlugins)}`);
  if (!f.includeStale) where.push(`(n."expiresAt" IS NULL OR n."expiresAt" > ${p.time(now)})`);
  return where;
}

/** The page's keyset bounds. */
function keyset(p: Params, page: PageWindow): string[] {
  const where: string[] = [];
  // The plain range bound beside the OR is what lets both databases use the (…, createdAt, id)
  // index as a range; the OR alone is applied as a filter after a scan. (SQLite's "?" cannot be
  // reused, so each mention is its own parameter.)
  const bound = (position: Position, cmp: "<" | ">") =>
    `n."createdAt" ${cmp}= ${p.time(position.createdAt)} AND (n."createdAt" ${cmp} ${p.time(position.createdAt)} OR (n."createdAt" = ${p.time(position.createdAt)} AND n."id" ${cmp} ${p.add(position.id)}))`;
  if (page.after) where.push(bound(page.after, "<"));
  if (page.before) where.push(bound(page.before, ">"));
  return where;
}

/** A raw result row as the models type it: times as Dates, the receipt split off. */
export function toPageRow(raw: Record<string, unknown>): PageRow {
  const row: Record<string, unknown> = {};
  const receipt: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(raw)) {
    if (column.startsWith("r_")) receipt[column.slice(2)] = value;
    else row[column] = value;
  }
  const hasReceipt = receipt.notificationId !== null && receipt.notificationId !== undefined;
  return { row: toNotificationRow(row), receipt: hasReceipt ? toReceiptRow(receipt) : null };
}
