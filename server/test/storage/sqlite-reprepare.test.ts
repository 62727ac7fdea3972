// SQLite prepares a statement again, at every run, when a value bound in it may change its plan:
// a LIKE pattern given as a parameter is one. The outbox's INSERT … SELECT runs with every publish
// and took about 90 µs there until its pattern became a literal of its shape. SQLite compiles a
// statement under the connection's authorizer, so a statement prepared again calls it again: here
// the authorizer counts compilations while each statement runs for records of every scope.
import { createTempSqlite, type TempSqlite } from "@herald/testkit";
import { DatabaseSync, type DatabaseSyncInstance } from "@photostructure/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NotificationScope } from "../../src/domain/enums.ts";
import type { NotificationRecord } from "../../src/domain/notification.ts";
import { outboxWrite } from "../../src/storage/channels/delivery-outbox.ts";
import { sqliteValues } from "../../src/storage/connection/sqlite-values.ts";
import { applyMigrations } from "../../src/storage/migrations/migration-applier.ts";

describe("the outbox's statement on SQLite", () => {
  let store: TempSqlite;
  let db: DatabaseSyncInstance;
  beforeAll(async () => {
    store = createTempSqlite("herald-reprepare-");
    await applyMigrations(store.url);
    db = new DatabaseSync(store.file);
  });
  afterAll(() => {
    db?.close();
    store?.remove();
  });

  it.each<NotificationScope>(["PERSON", "SESSION", "APPLICATION"])("is compiled once and run for every %s record without compiling again", (scope) => {
    const writeFor = (n: number) => {
      // What the outbox reads of a record.
      const record = { scope, id: `n${n}`, revision: n, personId: scope === "APPLICATION" ? null : `p${n}`, severity: n % 2 ? "INFO" : "ERROR" };
      return outboxWrite("sqlite", record as NotificationRecord, "notification.created", new Date(1_800_000_000_000 + n)).statement.compile();
    };
    let compilations = 0;
    db.setAuthorizer(() => {
      compilations++;
      return 0;
    });
    const statement = db.prepare(writeFor(0).sql);
    const afterPrepare = compilations;
    expect(afterPrepare).toBeGreaterThan(0);
    for (let n = 1; n <= 5; n++) {
      const { sql, parameters } = writeFor(n);
      expect(sql).toBe(writeFor(0).sql);
      statement.run(...sqliteValues(parameters));
    }
    db.setAuthorizer(null);
    expect(compilations).toBe(afterPrepare);
  });
});
