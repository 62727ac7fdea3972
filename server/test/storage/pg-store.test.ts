// PostgreSQL transactions on Herald's own pool (storage/connection/pg-store.ts): one whose end fails gives its
// connection back (ten such once used up the pool and every later query waited for ever), and one
// that runs past its time limit is rolled back and fails its later statements.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransactionExpired } from "../../src/storage/connection/connection.ts";
import { openDatabase, type Database } from "../../src/storage/connection/database.ts";
import { postgresBaseUrl, providers, type TestDatabase } from "../support/providers.ts";

const postgres = providers[1]!;

describe.skipIf(!postgres.available)("PostgreSQL transactions on the store's pool", () => {
  let store: TestDatabase;
  let database: Database;
  let admin: pg.Client;
  beforeAll(async () => {
    store = await postgres.createDatabase();
    // A leaked connection shows as a failed query after 3 s instead of a hang.
    database = await openDatabase(store.url, { connectTimeoutMs: 3_000, transactionTimeoutMs: 200 });
    await database.db.execute(`CREATE TABLE "kv" ("k" TEXT PRIMARY KEY)`, []);
    admin = new pg.Client({ connectionString: postgresBaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.close();
    await store?.drop();
  });

  it("gives the connection back when COMMIT fails, more times than the pool has connections", async () => {
    for (let i = 0; i < 12; i++) {
      const attempt = database.db.transaction(async (tx) => {
        const [backend] = await tx.query("SELECT pg_backend_pid() AS pid", []);
        await tx.execute(`INSERT INTO "kv" VALUES ($1)`, [`lost-${i}`]);
        // What a restart does to the connection just before the transaction ends.
        await admin.query("SELECT pg_terminate_backend($1)", [backend!.pid]);
      });
      await expect(attempt).rejects.toThrow();
    }
    expect(await database.db.query(`SELECT count(*) AS n FROM "kv"`, [])).toEqual([{ n: 0n }]);
  });

  it("rolls back a transaction past its time limit, frees its connection and fails its next statement", async () => {
    let resume!: () => void;
    const stuck = new Promise<void>((resolve) => (resume = resolve));
    const dropped = new Promise((resolve) => database.postgres!.pool.once("remove", resolve));
    const attempt = database.db.transaction(async (tx) => {
      await tx.execute(`INSERT INTO "kv" VALUES ($1)`, ["stuck"]);
      await stuck;
      await tx.execute(`INSERT INTO "kv" VALUES ($1)`, ["after"]);
    });
    // The expired transaction's connection leaves the pool (dropped, not returned), which ends it on the server.
    await dropped;
    resume();
    await expect(attempt).rejects.toBeInstanceOf(TransactionExpired);
    expect(await database.db.query(`SELECT "k" FROM "kv"`, [])).toEqual([]);
  });
});
