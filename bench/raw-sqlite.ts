// Raw SQLite through better-sqlite3, on the same file the Herald server uses, with the
// connection settings Herald applies (storage/connection/database.ts), so only Herald's own work differs.
import Database from "better-sqlite3";
import { ensureBetterSqlite3 } from "../scripts/better-sqlite3-build.ts";
import { listParams, type RawDriver, type RawRow } from "./raw-driver.ts";
import { packageVersion } from "./environment.ts";
import { type ListQuery, notificationColumns, type Published, seedColumns, snapshotOf, type Value } from "./rows.ts";
import {
  addToCounterSql,
  findActiveSql,
  incrementCounterSql,
  markSeenSql,
  insertEventSql,
  insertNotificationSql,
  listSql,
  questionMarks,
  seedInsertSql,
  updateColumns,
  updateNotificationSql,
} from "./sql.ts";

/** Prisma's better-sqlite3 adapter stores DateTime as ISO-8601 text with a "+00:00" offset. */
export function sqliteDate(d: Date): string {
  return d.toISOString().replace("Z", "+00:00");
}

const toSqlite = (v: Value) => (v instanceof Date ? sqliteDate(v) : v);

export function openRawSqlite(file: string): RawDriver {
  ensureBetterSqlite3();
  const db = new Database(file, { timeout: 10_000 });
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");

  const insertRow = db.prepare(insertNotificationSql(questionMarks));
  const updateRow = db.prepare<unknown[], { revision: number }>(updateNotificationSql(questionMarks));
  const increment = db.prepare<[], { value: number }>(incrementCounterSql);
  const insertEvent = db.prepare(insertEventSql(questionMarks));
  const seedRow = db.prepare(seedInsertSql(questionMarks));
  const firstPage = db.prepare<unknown[], { id: string }>(listSql(questionMarks, false));
  const laterPage = db.prepare<unknown[], { id: string }>(listSql(questionMarks, true));
  const revision = db.prepare<[string], { revision: number }>(`SELECT "revision" FROM "Notification" WHERE "id" = ?`);

  const appendEvent = (notification: Published, revision: number, type: string) => {
    const seq = increment.get()!.value;
    const { id, personId } = notification.record;
    insertEvent.run(seq, personId, type, id, revision, snapshotOf(notification, revision), sqliteDate(new Date()));
  };
  const insertTx = db.transaction((notification: Published) => {
    insertRow.run(notificationColumns.map((c) => toSqlite(notification.row[c]!)));
    appendEvent(notification, notification.record.revision, "CREATED");
  });
  const updateTx = db.transaction((notification: Published): number => {
    const next = updateRow.get([...updateColumns.map((c) => toSqlite(notification.row[c]!)), notification.record.id])!.revision;
    appendEvent(notification, next, "UPDATED");
    return next;
  });
  const seedTx = db.transaction((rows: readonly Published["row"][]) => {
    for (const row of rows) seedRow.run(seedColumns.map((c) => toSqlite(row[c]!)));
  });
  const pageStatement = (query: ListQuery) => (query.after ? laterPage : firstPage);

  const findActive = db.prepare<[string], { id: string }>(findActiveSql(questionMarks, false));
  const addToCounter = db.prepare<[number], { value: number }>(addToCounterSql(questionMarks));
  const upsertTx = db.transaction((notification: Published): { id: string; revision: number } => {
    const active = findActive.get(notification.row.activeKey as string);
    if (!active) {
      insertTx(notification);
      return { id: notification.record.id, revision: 1 };
    }
    const current = { ...notification, record: { ...notification.record, id: active.id } };
    return { id: active.id, revision: updateTx(current) };
  });
  const seenStatements = new Map<number, Database.Statement<unknown[], RawRow>>();
  const markSeenTx = db.transaction((personId: string, ids: readonly string[], now: Date): RawRow[] => {
    let statement = seenStatements.get(ids.length);
    if (!statement) seenStatements.set(ids.length, (statement = db.prepare<unknown[], RawRow>(markSeenSql(questionMarks, ids.length))));
    const rows = statement.all(sqliteDate(now), sqliteDate(now), personId, ...ids);
    if (rows.length === 0) return rows;
    const last = addToCounter.get(rows.length)!.value;
    const at = sqliteDate(new Date());
    rows.forEach((row, i) => insertEvent.run(last - rows.length + 1 + i, personId, "SEEN", row.id, row.revision, JSON.stringify(row), at));
    return rows;
  });

  return {
    name: `better-sqlite3 ${packageVersion("better-sqlite3")}`,
    concurrency: 1,
    insertPublished: async (notification) => insertTx(notification),
    updatePublished: async (notification) => updateTx(notification),
    seed: async (rows) => seedTx(rows),
    // Herald never runs ANALYZE, so a real SQLite store has no sqlite_stat1 either: leave it so.
    afterSeed: async () => "nothing (Herald never runs ANALYZE on SQLite)",
    listPage: async (query) =>
      pageStatement(query)
        .all(listParams(query, sqliteDate))
        .map((r) => r.id),
    listRows: async (query) => pageStatement(query).all(listParams(query, sqliteDate)) as RawRow[],
    upsertPublished: async (notification) => upsertTx(notification),
    markSeen: async (personId, ids, now) => markSeenTx(personId, ids, now),
    explainList: async (query) =>
      db
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${pageStatement(query).source}`)
        .all(listParams(query, sqliteDate))
        .map((r) => r.detail)
        .join("\n"),
    revisionOf: async (id) => revision.get(id)?.revision ?? null,
    databaseVersion: async () => `SQLite ${db.prepare<[], { v: string }>("SELECT sqlite_version() AS v").get()!.v}`,
    close: async () => {
      db.close();
    },
  };
}
