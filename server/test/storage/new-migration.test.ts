// `npm run migration:new` (scripts/new-migration.ts) writes a migration per provider only when
// prisma/models.prisma changed since the last one: with no change it refuses and writes nothing,
// instead of committing a migration that changes nothing. The script runs on a copy of scripts/
// and prisma/ inside the repository (so its imports and `npx prisma` resolve to node_modules).
import { spawn } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { repoRoot } from "../../src/storage/connection/database.ts";
import { postgresBaseUrl, providers } from "../support/providers.ts";

const postgresAvailable = providers.find((p) => p.name === "postgresql")?.available ?? false;

function run(dir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(dir, "scripts", "new-migration.ts"), "add_probe"], {
    cwd: dir,
    env: { ...process.env, HERALD_TEST_POSTGRES_URL: postgresBaseUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

const migrationsOf = (dir: string, provider: string) => readdirSync(join(dir, "prisma", provider, "migrations")).sort();

describe.skipIf(!postgresAvailable)("npm run migration:new", () => {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(join(repoRoot, ".migration-new-test-"));
    cpSync(join(repoRoot, "scripts"), join(dir, "scripts"), { recursive: true });
    cpSync(join(repoRoot, "prisma"), join(dir, "prisma"), { recursive: true, filter: (source) => !source.includes(".deploy-test-") });
    // prisma/postgresql/prisma.config.ts imports ../../server/src.
    symlinkSync(join(repoRoot, "server"), join(dir, "server"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses, and writes nothing, when the models have not changed", async () => {
    const before = { sqlite: migrationsOf(dir, "sqlite"), postgresql: migrationsOf(dir, "postgresql") };
    const result = await run(dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("has not changed since the last migration");
    expect(migrationsOf(dir, "sqlite")).toEqual(before.sqlite);
    expect(migrationsOf(dir, "postgresql")).toEqual(before.postgresql);
  });

  it("writes one migration per provider for a changed model", async () => {
    appendFileSync(join(dir, "prisma", "models.prisma"), "\nmodel MigrationProbe {\n  id String @id\n}\n");
    const result = await run(dir);
    expect(result.stderr).not.toContain("has not changed");
    expect(result.code).toBe(0);
    for (const provider of ["sqlite", "postgresql"]) {
      const added = migrationsOf(dir, provider).find((name) => name.endsWith("_add_probe"));
      expect(added, provider).toBeDefined();
      expect(readFileSync(join(dir, "prisma", provider, "migrations", added!, "migration.sql"), "utf8")).toContain('CREATE TABLE "MigrationProbe"');
    }
  });
});
