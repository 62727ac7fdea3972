// Tells when migrate.ts's workaround can go: on PostgreSQL `prisma migrate deploy` lingers after
// its work is done (a timer its Wasm schema engine leaves pending), so migrate() stops it once the
// migrations table shows everything applied. When this test fails, the CLI exits by itself:
// remove the progress polling from migrate.ts and this test.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, repoRoot } from "../../src/storage/connection/database.ts";
import { migrate, pendingMigrations } from "../../src/storage/migrations/migrate.ts";
import { providers, type TestDatabase } from "../support/providers.ts";

const postgres = providers[1]!;

describe.skipIf(!postgres.available)("prisma migrate deploy on PostgreSQL", () => {
  let store: TestDatabase;
  beforeAll(async () => {
    store = await postgres.createDatabase();
  });
  afterAll(async () => {
    await store?.drop();
  });

  it("is stopped by migrate() once every migration is recorded as applied", async () => {
    await migrate(store.url);
    const database = await openDatabase(store.url);
    try {
      expect(await pendingMigrations(database)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it("still lingers after its work when left alone (the reason for the workaround)", async () => {
    const child = spawn(process.execPath, [join(repoRoot, "node_modules", "prisma", "build", "index.js"), "migrate", "deploy", "--config", join(repoRoot, "prisma", "postgresql", "prisma.config.ts")], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: store.url, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1", PRISMA_CLIENT_ENGINE_TYPE: "client" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const done = new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("No pending migrations to apply")) resolve();
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
    });
    const exited = new Promise<"exited">((resolve) => child.on("exit", () => resolve("exited")));
    try {
      await done;
      // A fixed wait is the point here: the question is whether the process is still there 3 s after its work.
      const after = await Promise.race([exited, new Promise<"lingering">((resolve) => setTimeout(() => resolve("lingering"), 3_000))]);
      expect(after).toBe("lingering");
    } finally {
      child.kill();
    }
  });
});
