// The SQLite read thread the scanner's selections run on: it reads what the server committed
// (WAL), refuses writes, reports a failed statement without dying, and leaves the request
// thread free while a long statement runs.
import { createTempSqlite } from "@herald/testkit";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHerald, type Herald } from "../../src/app.ts";
import { SqliteReadThread } from "../../src/storage/sqlite-read-thread.ts";

describe("the SQLite read thread", () => {
  const store = createTempSqlite("herald-read-thread-");
  let herald: Herald;
  let thread: SqliteReadThread;

  beforeAll(async () => {
    herald = await createHerald({ databaseUrl: store.url, logger: pino({ level: "silent" }) });
    thread = new SqliteReadThread(store.file);
  });
  afterAll(async () => {
    await thread?.close();
    await herald?.close();
    store.remove();
  });

  it("reads rows the server committed, and later commits too", async () => {
    const ada = await herald.services.directory.createPerson({ name: "Ada" });
    expect(await thread.query(`SELECT "name" FROM "Person" WHERE "id" = ?`, [ada.id])).toEqual([{ name: "Ada" }]);
    await herald.services.directory.createPerson({ name: "Bob" });
    expect(await thread.query(`SELECT COUNT(*) AS "n" FROM "Person" WHERE "name" IN ('Ada', 'Bob')`, [])).toEqual([{ n: 2 }]);
  });

  it("refuses writes and keeps serving after a failed statement", async () => {
    // RETURNING makes it a statement that returns rows, so only the read-only connection refuses it.
    await expect(thread.query(`DELETE FROM "Person" RETURNING "id"`, [])).rejects.toThrow(/readonly/i);
    await expect(thread.query(`SELECT 1 FROM "nowhere"`, [])).rejects.toThrow(/no such table/);
    expect(await herald.database.db.person.count()).toBeGreaterThanOrEqual(2);
    expect(await thread.query(`SELECT 1 AS "one"`, [])).toEqual([{ one: 1 }]);
  });

  it("leaves the request thread free while a long statement runs", async () => {
    let turns = 0;
    const timer = setInterval(() => turns++, 5);
    try {
      // Counts to three million in SQL: a long synchronous statement, here on the read thread.
      const rows = await thread.query(`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT COUNT(*) AS "n" FROM c`, []);
      expect(rows).toEqual([{ n: 3_000_000 }]);
    } finally {
      clearInterval(timer);
    }
    // On the request thread the timer could not have fired once before the statement returned.
    expect(turns).toBeGreaterThan(0);
  });
});
