// A PostgreSQL connection ended by the server (a restart) while a transaction holds it between two
// statements: the transaction fails, the process stays up, and the store answers again after.
import { eventually } from "@herald/testkit";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/storage/connection/database.ts";
import { hearingConnectionErrors } from "../../src/storage/connection/pg-connection-errors.ts";
import { postgresBaseUrl, providers, type TestDatabase } from "../support/providers.ts";

const postgres = providers[1]!;

describe.skipIf(!postgres.available)("a PostgreSQL connection ended under a transaction", () => {
  let store: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    store = await postgres.createDatabase();
    database = await openDatabase(store.url);
  });
  afterAll(async () => {
    await database?.close();
    await store?.drop();
  });

  it("fails that transaction without an unheard 'error' event, and the next query is answered", async () => {
    const admin = new pg.Client({ connectionString: postgresBaseUrl });
    await admin.connect();
    // Which connections heard an 'error' event (the store's pool uses this same pg).
    const proto = pg.Client.prototype as { emit(event: string | symbol, ...args: unknown[]): boolean };
    const emit = proto.emit;
    const ownEmit = Object.hasOwn(proto, "emit");
    const erred = new Set<unknown>();
    proto.emit = function (this: unknown, event, ...args) {
      if (event === "error") erred.add(this);
      return emit.call(this, event, ...args);
    };
    try {
      const transaction = database.db.transaction(async (tx) => {
        const [backend] = await tx.query("SELECT pg_backend_pid() AS pid", []);
        // What a restart does to every connection; this one is between two statements of its transaction.
        await admin.query("SELECT pg_terminate_backend($1)", [backend!.pid]);
        // The case under test: the termination reaches the connection while it is checked out.
        await eventually(() => erred.size > 0, 10_000, "the ended connection's 'error' event");
        await tx.query("SELECT 1", []);
      });
      await expect(transaction).rejects.toThrow();
      expect(await database.db.query("SELECT 1 AS one", [])).toEqual([{ one: 1 }]);
    } finally {
      if (ownEmit) proto.emit = emit;
      else delete (proto as { emit?: unknown }).emit;
      await admin.end();
    }
  });

  it("keeps a connection listening for 'error' while it is checked out, where pg's pool stops listening", async () => {
    // The crash: PostgreSQL's "terminating connection" can arrive in the same read as the reply
    // that ends a statement, after the pool handed the connection on and before its new holder
    // listens; an 'error' event nobody hears is thrown, and it ended the process.
    const bare = new pg.Pool({ connectionString: postgresBaseUrl, max: 1 });
    const heard = hearingConnectionErrors(new pg.Pool({ connectionString: postgresBaseUrl, max: 1 }));
    try {
      const bareClient = await bare.connect();
      expect(() => bareClient.emit("error", new Error("terminating connection due to administrator command"))).toThrow("terminating connection");
      bareClient.release(true);
      const client = await heard.connect();
      expect(() => client.emit("error", new Error("terminating connection due to administrator command"))).not.toThrow();
      client.release(true);
      // The pool replaces the connection it dropped.
      expect((await heard.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await bare.end();
      await heard.end();
    }
  });
});
