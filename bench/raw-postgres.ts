// Raw PostgreSQL through node-postgres, in the benchmark's schema, with a pool of as many
// connections as the load keeps transactions in flight.
import pg from "pg";
import { packageVersion } from "./environment.ts";
import { listParams, type RawDriver, type RawRow } from "./raw-driver.ts";
import { dateColumns, integerColumns, notificationColumns, type Published, seedColumns, snapshotOf, type Value } from "./rows.ts";
import {
  addToCounterSql,
  dollars,
  findActiveSql,
  incrementCounterSql,
  insertEventSql,
  insertNotificationSql,
  listSql,
  markSeenSql,
  updateColumns,
  updateNotificationSql,
} from "./sql.ts";

/**
 * Columns are timestamp(3) without time zone holding UTC (as Prisma writes them). An ISO string
 * keeps the value in UTC: PostgreSQL ignores the "Z" for this type, whereas node-postgres would
 * serialise a Date in the machine's local time zone.
 */
const postgresDate = (d: Date) => d.toISOString();
const toPostgres = (v: Value) => (v instanceof Date ? postgresDate(v) : v);

export function postgresPool(baseUrl: string, schema: string, max: number): pg.Pool {
  // Timeouts keep a stuck database from hanging the run; they are far above any expected query.
  return new pg.Pool({
    connectionString: baseUrl,
    options: `-c search_path=${schema}`,
    max,
    connectionTimeoutMillis: 10_000,
    statement_timeout: 60_000,
  });
}

export function openRawPostgres(baseUrl: string, schema: string, poolSize: number): RawDriver {
  const pool = postgresPool(baseUrl, schema, poolSize);
  const insertRow = insertNotificationSql(dollars);
  const updateRow = updateNotificationSql(dollars);
  const insertEvent = insertEventSql(dollars);

  const inTransaction = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  const appendEvent = async (client: pg.PoolClient, notification: Published, revision: number, type: string) => {
    const { rows } = await client.query<{ value: number }>(incrementCounterSql);
    const { id, personId } = notification.record;
    await client.query(insertEvent, [rows[0]!.value, personId, type, id, revision, snapshotOf(notification, revision), postgresDate(new Date())]);
  };

  // One INSERT ... SELECT FROM unnest(arrays) per batch: a few statements for 100,000 rows.
  const seedCast = (c: string) => (integerColumns.has(c) ? "int[]" : dateColumns.has(c) ? "timestamp(3)[]" : "text[]");
  const seedSql =
    `INSERT INTO "Notification" (${seedColumns.map((c) => `"${c}"`).join(", ")}) ` +
    `SELECT * FROM unnest(${seedColumns.map((c, i) => `$${i + 1}::${seedCast(c)}`).join(", ")})`;

  const insertNew = async (client: pg.PoolClient, notification: Published) => {
    await client.query(
      insertRow,
      notificationColumns.map((c) => toPostgres(notification.row[c]!)),
    );
    await appendEvent(client, notification, notification.record.revision, "CREATED");
  };
  const updateExisting = async (client: pg.PoolClient, notification: Published): Promise<number> => {
    const { rows } = await client.query<{ revision: number }>(updateRow, [
      ...updateColumns.map((c) => toPostgres(notification.row[c]!)),
      notification.record.id,
    ]);
    const revision = rows[0]!.revision;
    await appendEvent(client, notification, revision, "UPDATED");
    return revision;
  };
  const eventsSql =
    `INSERT INTO "NotificationEvent" ("seq", "personId", "type", "notificationId", "revision", "snapshot", "createdAt") ` +
    `SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::timestamp(3)[])`;

  return {
    name: `pg ${packageVersion("pg")} (pool of ${poolSize})`,
    concurrency: poolSize,
    insertPublished: (notification) => inTransaction((client) => insertNew(client, notification)),
    updatePublished: (notification) => inTransaction((client) => updateExisting(client, notification)),
    upsertPublished: (notification) =>
      inTransaction(async (client) => {
        const { rows } = await client.query<{ id: string }>(findActiveSql(dollars, true), [notification.row.activeKey]);
        if (!rows[0]) {
          await insertNew(client, notification);
          return { id: notification.record.id, revision: 1 };
        }
        const id = rows[0].id;
        return { id, revision: await updateExisting(client, { ...notification, record: { ...notification.record, id } }) };
      }),
    markSeen: (personId, ids, now) =>
      inTransaction(async (client) => {
        const { rows } = await client.query<RawRow>(markSeenSql(dollars, ids.length), [postgresDate(now), postgresDate(now), personId, ...ids]);
        if (rows.length === 0) return rows;
        const counter = await client.query<{ value: number }>(addToCounterSql(dollars), [rows.length]);
        const first = counter.rows[0]!.value - rows.length + 1;
        const at = postgresDate(new Date());
        await client.query(eventsSql, [
          rows.map((_, i) => first + i),
          rows.map(() => personId),
          rows.map(() => "SEEN"),
          rows.map((r) => r.id),
          rows.map((r) => r.revision),
          rows.map((r) => JSON.stringify(r)),
          rows.map(() => at),
        ]);
        return rows;
      }),
    seed: (rows) =>
      inTransaction(async (client) => {
        await client.query(
          seedSql,
          seedColumns.map((c) => rows.map((row) => toPostgres(row[c]!))),
        );
      }),
    // Autovacuum would analyze the table within a minute of the seed; doing it now keeps the
    // plan from changing halfway through the measurement.
    afterSeed: async () => {
      await pool.query('ANALYZE "Notification"');
      return 'ANALYZE "Notification" (what autovacuum does shortly after a bulk insert)';
    },
    listPage: async (query) => {
      const { rows } = await pool.query<{ id: string }>(listSql(dollars, query.after !== null), listParams(query, postgresDate));
      return rows.map((r) => r.id);
    },
    listRows: async (query) => (await pool.query<RawRow>(listSql(dollars, query.after !== null), listParams(query, postgresDate))).rows,
    explainList: async (query) => {
      const { rows } = await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${listSql(dollars, query.after !== null)}`, listParams(query, postgresDate));
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    },
    revisionOf: async (id) => {
      const { rows } = await pool.query<{ revision: number }>(`SELECT "revision" FROM "Notification" WHERE "id" = $1`, [id]);
      return rows[0]?.revision ?? null;
    },
    databaseVersion: async () => {
      const { rows } = await pool.query<{ server_version: string }>("SHOW server_version");
      return `PostgreSQL ${rows[0]!.server_version}`;
    },
    close: () => pool.end(),
  };
}
