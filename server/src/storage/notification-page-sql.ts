// A page of a person's notifications as one SQL statement: their own rows and the shared
// APPLICATION rows (with the person's receipt joined in) each read by its own index-ordered keyset
// query, merged by UNION ALL. The same rules as the Prisma filters of notification-store.ts's
// counts; a list is the hottest read, and this path costs one statement where the query
// builder cost three (the own rows, the shared rows, their receipts) and most of the request's CPU.
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

export function pageStatement(provider: Provider, personId: string, f: EffectiveFilter, page: PageWindow, now: Date): { sql: string; params: unknown[] } | null {
  const p = new Params(provider);
  const direction = page.inverted ? "ASC" : "DESC";
  const order = (table: string) => `ORDER BY ${table}"createdAt" ${direction}, ${table}"id" ${direction}`;
  const limit = Math.trunc(page.limit);
  const parts: string[] = [];
  // Typed NULLs: PostgreSQL will not UNION an untyped NULL (text) with the receipt's timestamps.
  const receiptNulls = RECEIPT_COLUMNS.map((c) => `CAST(NULL AS ${(RECEIPT_DATE_COLUMNS as readonly string[]).includes(c) ? "timestamp(3)" : "text"}) AS "r_${c}"`).join(", ");

  if (f.scope !== "APPLICATION" && f.statuses.length > 0) {
    const where = [`n."personId" = ${p.add(personId)}`, `n."status" IN ${p.list(f.statuses)}`];
    if (f.scope) where.push(`n."scope" = ${p.add(f.scope)}`);
    if (f.sessionId) where.push(`n."sessionId" = ${p.add(f.sessionId)}`);
    where.push(...common(p, f, page, now));
    if (!f.includeSnoozed) where.push(`(n."snoozedUntil" IS NULL OR n."snoozedUntil" <= ${p.time(now)})`);
    parts.push(`SELECT n.*, ${receiptNulls} FROM "Notification" n WHERE ${where.join(" AND ")} ${order("n.")} LIMIT ${limit}`);
  }

  if ((!f.scope || f.scope === "APPLICATION") && !f.sessionId && f.statuses.length > 0) {
    const receipt = RECEIPT_COLUMNS.map((c) => `r."${c}" AS "r_${c}"`).join(", ");
    const join = `LEFT JOIN "NotificationReceipt" r ON r."notificationId" = n."id" AND r."personId" = ${p.add(personId)}`;
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
    const where = [`n."scope" = 'APPLICATION'`, `(${byStatus.join(" OR ")})`, ...common(p, f, page, now)];
    if (!f.includeSnoozed) where.push(`(r."snoozedUntil" IS NULL OR r."snoozedUntil" <= ${p.time(now)})`);
    parts.push(`SELECT n.*, ${receipt} FROM "Notification" n ${join} WHERE ${where.join(" AND ")} ${order("n.")} LIMIT ${limit}`);
  }

  if (parts.length === 0) return null;
  const sql = parts.length === 1 ? parts[0]! : `SELECT * FROM (${parts.map((s, i) => `SELECT * FROM (${s}) AS part${i}`).join(" UNION ALL ")}) AS merged ${order("")} LIMIT ${limit}`;
  return { sql, params: p.values };
}

/** Conditions both sources share: engagement, severity and plugin filters, TTL, the keyset bounds. */
function common(p: Params, f: EffectiveFilter, page: PageWindow, now: Date): string[] {
  const where: string[] = [];
  if (f.engagementId) where.push(`n."engagementId" = ${p.add(f.engagementId)}`);
  if (f.severities) where.push(`n."severity" IN ${p.list(f.severities)}`);
  if (f.plugins) where.push(`n."sourcePlugin" IN ${p.list(f.plugins)}`);
  if (!f.includeStale) where.push(`(n."expiresAt" IS NULL OR n."expiresAt" > ${p.time(now)})`);
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
