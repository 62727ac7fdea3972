// The committed migrations applied in this process (storage/migrations/migration-applier.ts), recorded in
// Prisma's `_prisma_migrations` table: on PostgreSQL two instances starting together apply each
// migration once (the advisory lock), on SQLite a second run finds nothing to do, and either
// store then reads as up to date.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/storage/connection/database.ts";
import { pendingMigrations } from "../../src/storage/migrations/migrate.ts";
import { applyMigrations, committedMigrations } from "../../src/storage/migrations/migration-applier.ts";
import { providers, type TestDatabase } from "../support/providers.ts";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`migrations applied in process on ${provider.name}`, () => {
    let store: TestDatabase;
    beforeAll(async () => {
      store = await provider.createDatabase();
    });
    afterAll(async () => store?.drop());

    it("applies each committed migration once when two instances start together, and nothing the next time", async () => {
      const names = committedMigrations(provider.name).map((m) => m.name);
      expect(names.length).toBeGreaterThan(0);
      // On SQLite both run in this one process, one after the other: the second finds each migration applied.
      const [first, second] = await Promise.all([applyMigrations(store.url), applyMigrations(store.url)]);
      expect([...first, ...second].sort()).toEqual(names);
      expect(await applyMigrations(store.url)).toEqual([]);
      const database = await openDatabase(store.url);
      try {
        expect(await pendingMigrations(database)).toEqual([]);
        const rows = await database.db.query(
          `SELECT "migration_name", "applied_steps_count", "checksum" FROM "_prisma_migrations" ORDER BY "migration_name"`,
          [],
        );
        expect(rows.map((r) => r.migration_name)).toEqual(names);
        expect(rows.map((r) => String(r.checksum))).toEqual(committedMigrations(provider.name).map((m) => m.checksum));
        // The models' tables are there: the person table answers.
        expect(await database.db.query(`SELECT count(*) AS n FROM "Person"`, [])).toHaveLength(1);
      } finally {
        await database.close();
      }
    });
  });
}
