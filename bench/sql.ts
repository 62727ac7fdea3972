// The raw SQL both drivers run, written once with a placeholder style per driver ("?" or "$n").
// The list query mirrors, clause for clause, what Prisma generates for NotificationStore.page()
// (own rows, default filter); only the table qualifier differs.
import { notificationColumns, seedColumns } from "./rows.ts";

type Placeholder = (n: number) => string;
export const questionMarks: Placeholder = () => "?";
export const dollars: Placeholder = (n) => `$${n}`;

const q = (name: string) => `"${name}"`;
const list = (names: readonly string[]) => names.map(q).join(", ");

/** Columns an update writes: everything but the identity, creation time and the two counters. */
export const updateColumns = notificationColumns.filter((c) => !["id", "createdAt", "revision", "lockVersion"].includes(c));

export function insertNotificationSql(p: Placeholder): string {
  return `INSERT INTO "Notification" (${list(notificationColumns)}) VALUES (${notificationColumns.map((_, i) => p(i + 1)).join(", ")})`;
}

/** Parameters: updateColumns..., then id. Herald's update also bumps lockVersion and revision. */
export function updateNotificationSql(p: Placeholder): string {
  const sets = updateColumns.map((c, i) => `${q(c)} = ${p(i + 1)}`).join(", ");
  return `UPDATE "Notification" SET ${sets}, "revision" = "revision" + 1, "lockVersion" = "lockVersion" + 1 WHERE "id" = ${p(updateColumns.length + 1)} RETURNING "revision"`;
}

export const incrementCounterSql = `UPDATE "EventCounter" SET "value" = "value" + 1 WHERE "name" = 'events' RETURNING "value"`;

export function insertEventSql(p: Placeholder): string {
  const cols = ["seq", "personId", "type", "notificationId", "revision", "snapshot", "createdAt"];
  return `INSERT INTO "NotificationEvent" (${list(cols)}) VALUES (${cols.map((_, i) => p(i + 1)).join(", ")})`;
}

export function seedInsertSql(p: Placeholder): string {
  return `INSERT INTO "Notification" (${list(seedColumns)}) VALUES (${seedColumns.map((_, i) => p(i + 1)).join(", ")})`;
}

/**
 * Parameters: personId, the three active statuses, now (snoozed), now (expires),
 * [createdAt, createdAt, createdAt, id when keyset], limit, offset 0.
 */
export function listSql(p: Placeholder, keyset: boolean): string {
  let n = 0;
  const next = () => p(++n);
  const where = [
    `${q("personId")} = ${next()}`,
    `${q("status")} IN (${next()},${next()},${next()})`,
    `(${q("snoozedUntil")} IS NULL OR ${q("snoozedUntil")} <= ${next()})`,
    `(${q("expiresAt")} IS NULL OR ${q("expiresAt")} > ${next()})`,
  ];
  // The plain bound first, as Herald sends it: it is what makes the keyset an index range.
  if (keyset) {
    where.push(`${q("createdAt")} <= ${next()}`);
    where.push(`(${q("createdAt")} < ${next()} OR (${q("createdAt")} = ${next()} AND ${q("id")} < ${next()}))`);
  }
  return (
    `SELECT ${list(notificationColumns)} FROM "Notification" WHERE (${where.join(" AND ")}) ` +
    `ORDER BY ${q("createdAt")} DESC, ${q("id")} DESC LIMIT ${next()} OFFSET ${next()}`
  );
}

export const findActiveSql = (p: Placeholder, lock: boolean) => `SELECT "id" FROM "Notification" WHERE "activeKey" = ${p(1)}${lock ? " FOR UPDATE" : ""}`;

/** Parameters: seenAt, updatedAt, personId, then `count` ids. */
export function markSeenSql(p: Placeholder, count: number): string {
  const ids = Array.from({ length: count }, (_, i) => p(i + 4)).join(", ");
  return (
    `UPDATE "Notification" SET "status" = 'SEEN', "seenAt" = ${p(1)}, "updatedAt" = ${p(2)}, "lockVersion" = "lockVersion" + 1 ` +
    `WHERE "personId" = ${p(3)} AND "status" IN ('PENDING', 'DELIVERED') AND "id" IN (${ids}) RETURNING ${list(notificationColumns)}`
  );
}

export const addToCounterSql = (p: Placeholder) => `UPDATE "EventCounter" SET "value" = "value" + ${p(1)} WHERE "name" = 'events' RETURNING "value"`;
