// PostgreSQL's prepared statements on Herald's store (storage/connection/pg-statement-names.ts):
// a statement with parameters is parsed once per connection and run again under its name; a text
// without parameters runs unnamed (several commands in one text still work); no more than
// MAX_NAMED texts are ever named; and a schema change made by someone else under a kept plan costs
// one more parse, never a failed statement outside a transaction nor a lost unit of work inside one,
// nor a failed publish or list of a running Herald.
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PostgresStore } from "../../src/storage/connection/pg-store.ts";
import { isStalePlan, MAX_NAMED } from "../../src/storage/connection/pg-statement-names.ts";
import { postgresTypes } from "../../src/storage/connection/pg-types.ts";
import { postgresPoolConfig, postgresSchemaOf } from "../../src/storage/connection/postgres-url.ts";
import { retryingTransaction } from "../../src/storage/connection/retrying-transaction.ts";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { postgresBaseUrl, providers, type TestDatabase } from "../support/providers.ts";

const postgres = providers[1]!;

describe.skipIf(!postgres.available)("prepared statements on PostgreSQL", () => {
  let database: TestDatabase;
  let admin: pg.Client;
  let store: PostgresStore;
  /** One connection, so what one statement prepared is what the next one finds. */
  const openStore = () => (store = new PostgresStore(new pg.Pool(postgresPoolConfig(database.url, { max: 1, types: postgresTypes(pg) }))));
  const prepared = async () =>
    (await store.query(`SELECT "statement", "generic_plans" + "custom_plans" AS "runs" FROM pg_prepared_statements ORDER BY "prepare_time"`, [])) as {
      statement: string;
      runs: bigint;
    }[];

  beforeAll(async () => {
    database = await postgres.createDatabase();
    admin = new pg.Client({ connectionString: postgresBaseUrl });
    await admin.connect();
  });
  afterEach(async () => {
    await store?.close();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  it("parses a statement with parameters once on a connection and runs it again under its name", async () => {
    openStore();
    for (const n of [1, 2, 3]) expect(await store.query("SELECT $1::int * 2 AS twice", [n])).toEqual([{ twice: n * 2 }]);
    expect(await prepared()).toEqual([{ statement: "SELECT $1::int * 2 AS twice", runs: 3n }]);
  });

  it("runs a text without parameters unnamed, so a text of several commands still runs", async () => {
    openStore();
    await store.execute(`CREATE TABLE "one" ("x" int); CREATE TABLE "two" ("x" int)`, []);
    expect(await store.query(`SELECT count(*) AS n FROM "one", "two"`, [])).toEqual([{ n: 0n }]);
    expect(await prepared()).toEqual([]);
  });

  it(`names no more than ${MAX_NAMED} texts; later ones run unnamed and answer all the same`, async () => {
    openStore();
    for (let k = 0; k < MAX_NAMED + 10; k++) expect(await store.query(`SELECT $1::int + ${k} AS n`, [1])).toEqual([{ n: k + 1 }]);
    expect(store.names.size).toBe(MAX_NAMED);
    expect(await prepared()).toHaveLength(MAX_NAMED);
  });

  describe("a column added by someone else under a kept plan", () => {
    const selectAll = `SELECT * FROM "kv" WHERE "k" = $1`;
    const table = () => `"${postgresSchemaOf(database.url)}"."kv"`;
    beforeAll(async () => {
      await admin.query(`CREATE TABLE ${table()} ("k" text PRIMARY KEY)`);
      await admin.query(`INSERT INTO ${table()} VALUES ('a')`);
    });
    // Another connection, as another instance's migration would be.
    const addColumn = (name: string) => admin.query(`ALTER TABLE ${table()} ADD COLUMN "${name}" int DEFAULT 7`);

    it("outside a transaction: the statement answers with the new column, parsed anew", async () => {
      openStore();
      expect(await store.query(selectAll, ["a"])).toEqual([{ k: "a" }]);
      await addColumn("b");
      expect(await store.query(selectAll, ["a"])).toEqual([{ k: "a", b: 7 }]);
    });

    it("inside a transaction: the attempt fails as a stale plan, and the unit of work's next attempt succeeds", async () => {
      openStore();
      expect(await store.query(selectAll, ["a"])).toEqual([{ k: "a", b: 7 }]);
      await addColumn("c");
      const failures: unknown[] = [];
      const row = await retryingTransaction(store, async (tx) => {
        try {
          return await tx.query(selectAll, ["a"]);
        } catch (error) {
          failures.push(error);
          throw error;
        }
      });
      expect(row).toEqual([{ k: "a", b: 7, c: 7 }]);
      expect(failures).toHaveLength(1);
      expect(isStalePlan(failures[0])).toBe(true);
    });
  });
});

describe.skipIf(!postgres.available)("a running Herald on PostgreSQL when another instance's migration adds a column", () => {
  let h: TestHerald;
  let admin: pg.Client;
  beforeAll(async () => {
    h = await startHerald(postgres);
    admin = new pg.Client({ connectionString: postgresBaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await h?.close();
  });

  it("publishes the same key again and lists it as before", async () => {
    const person = await h.newPerson("Reader");
    const list = async () =>
      (await gql(h.url, person.token, `{ notifications(first: 5) { edges { node { id revision title } } } }`)).data.notifications.edges.map(
        (e: { node: unknown }) => e.node,
      );
    // One after the other, the publishes take the same pooled connection, where the first prepared the statements.
    const first = await h.publish({ scope: "PERSON", personId: person.id, key: "build", title: "Build started" });
    await h.publish({ scope: "PERSON", personId: person.id, key: "build", title: "Build running" });
    for (const table of ["Notification", "NotificationEvent", "Person"]) {
      await admin.query(`ALTER TABLE "${postgresSchemaOf(h.databaseUrl)}"."${table}" ADD COLUMN "addedLater" int DEFAULT 7`);
    }
    const names = (h.herald.database.db as PostgresStore).names;
    const generation = names.generation;
    const again = await h.publish({ scope: "PERSON", personId: person.id, key: "build", title: "Build passed" });
    // The publish did meet a stale plan (and was not merely given a connection that had prepared nothing).
    expect(names.generation).toBeGreaterThan(generation);
    expect(again).toMatchObject({ __typename: "Notification", id: first.id, revision: 3 });
    expect(await list()).toEqual([{ id: first.id, revision: 3, title: "Build passed" }]);
  });
});
