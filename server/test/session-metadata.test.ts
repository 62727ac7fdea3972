// `herald session-metadata`: the real binary against real stores, byte for byte, and proof that
// it writes nothing (file bytes, modification times, files beside the store, every table's rows).
import { execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHerald, type Herald } from "@herald/server/app";
import { heraldRaw } from "./support/processes.ts";
import { postgresBaseUrl, providers, type TestDatabase } from "./support/providers.ts";
import { storeOf } from "./support/store.ts";

/** The file of a `file:` store URL. */
const sqliteFileOf = (url: string): string => url.slice("file:".length);

const INVALID = '{"version":1,"status":"invalid_request"}\n';
const MAX = "18446744073709551615";

const line = (fields: Record<string, string>) =>
  `${JSON.stringify({ version: 1, status: fields.status, harness: fields.harness, session_id: fields.session_id, label: fields.label ?? "", completion_id: fields.completion_id ?? "", source_generation: fields.source_generation ?? "0", label_generation: fields.label_generation ?? "0" })}\n`;

async function metadata(args: string[], env: Record<string, string | undefined> = {}) {
  const r = await heraldRaw(["session-metadata", ...args], { DATABASE_URL: undefined, ...env });
  expect(r.stderr.toString()).toBe("");
  return { out: r.stdout.toString("utf8"), bytes: r.stdout.length, code: r.code };
}

describe("session-metadata refuses invalid requests with exactly one line and exit 2", () => {
  const cases: [string, string[]][] = [
    ["no flags", []],
    ["an unknown flag", ["--harness", "pi", "--session-id", "s1", "--state-base", "/tmp"]],
    ["a stray argument", ["--harness", "pi", "--session-id", "s1", "extra"]],
    ["a duplicate flag", ["--harness", "pi", "--harness", "pi", "--session-id", "s1"]],
    ["a duplicate flag in = form", ["--harness=pi", "--session-id", "s1", "--session-id=s1"]],
    ["a missing --harness", ["--session-id", "s1"]],
    ["a missing --session-id", ["--harness", "pi"]],
    ["a flag without its value", ["--harness", "pi", "--session-id"]],
    ["a flag followed by another flag", ["--harness", "--session-id", "s1"]],
    ["an unsupported harness", ["--harness", "cursor", "--session-id", "s1"]],
    ["a harness in the wrong case", ["--harness", "PI", "--session-id", "s1"]],
    ["an empty session id", ["--harness", "pi", "--session-id="]],
    ["a session id starting with a dot", ["--harness", "pi", "--session-id", ".s1"]],
    ["a session id starting with a dash", ["--harness", "pi", "--session-id=-s1"]],
    ["a session id with a space", ["--harness", "pi", "--session-id", "s 1"]],
    ["a session id with a slash", ["--harness", "pi", "--session-id", "../s1"]],
    ["a session id of 129 characters", ["--harness", "pi", "--session-id", "s".repeat(129)]],
    ["a non-ASCII session id", ["--harness", "pi", "--session-id", "sé"]],
    ["a database URL of another kind", ["--harness", "pi", "--session-id", "s1", "--database-url", "mysql://x"]],
    ["the help flag", ["--help"]],
  ];
  it.each(cases)("%s", async (_name, args) => {
    expect(await metadata(args)).toEqual({ out: INVALID, bytes: INVALID.length, code: 2 });
  });

  it("reports unavailable, not invalid, when DATABASE_URL names another kind of store", async () => {
    expect(await metadata(["--harness", "opencode", "--session-id", "s1"], { DATABASE_URL: "mysql://db/herald" })).toMatchObject({
      out: line({ status: "unavailable", harness: "opencode", session_id: "s1" }),
      code: 0,
    });
  });

  it("accepts the longest valid session id and the = form", async () => {
    const dir = mkdtempSync(join(tmpdir(), "herald-meta-"));
    const id = `_${"a".repeat(127)}`;
    const r = await metadata([`--harness=codex`, `--session-id=${id}`, `--database-url=file:${join(dir, "none", "x.db")}`]);
    expect(r).toMatchObject({ out: line({ status: "missing", harness: "codex", session_id: id }), code: 0 });
    expect(readdirSync(dir)).toEqual([]); // the missing folder was not created
    rmSync(dir, { recursive: true });
  });
});

for (const provider of providers) {
  describe.skipIf(!provider.available)(`session-metadata on ${provider.name}`, () => {
    let db: TestDatabase;
    let herald: Herald;
    let personId: string;

    /** Writes label state straight into the store, as another writer (or corruption) would. */
    const writeState = async (
      harness: string,
      nativeSessionId: string,
      data: { label?: string; completionId?: string; sourceGeneration?: string; labelGeneration?: string },
    ) => {
      const store = storeOf(herald.database);
      const existing = await store.first("Session", (q) => q.where("harness", "=", harness).where("nativeSessionId", "=", nativeSessionId));
      if (existing) await store.execute(store.build.updateTable("Session").set(data).where("id", "=", existing.id));
      else
        await store.execute(
          store.build
            .insertInto("Session")
            .values({ id: randomUUID(), harness, nativeSessionId, ownerPersonId: personId, createdAt: store.time(new Date()), ...data }),
        );
    };
    const query = (harness: string, sessionId: string, extra: string[] = []) =>
      metadata(["--harness", harness, "--session-id", sessionId, ...extra], { DATABASE_URL: db.url });

    beforeAll(async () => {
      db = await provider.createDatabase();
      herald = await createHerald({ databaseUrl: db.url, logger: pino({ level: "silent" }) });
      personId = (await herald.services.directory.createPerson({ name: "Ada" })).id;
      for (let n = 1; n <= 2; n++) {
        await herald.services.sessions.reportExchange({
          harness: "pi",
          sessionId: "native-1",
          completionId: `entry-${n}`,
          cwd: "/home/ada/herald",
          userText: n === 1 ? "Please fix the login redirect loop" : "and add a test",
          assistantText: "Done.",
          personId,
        });
        await herald.services.sessions.settled();
      }
      await writeState("codex", "huge", {
        label: 'Quote "Heavy" Label',
        completionId: "cmp-max",
        sourceGeneration: MAX,
        labelGeneration: "18446744073709551614",
      });
      await writeState("opencode", "corrupt-gen", { label: "", completionId: "c", sourceGeneration: "12abc", labelGeneration: "0" });
      await writeState("opencode", "label-ahead", { label: "Some Valid Label", completionId: "c", sourceGeneration: "3", labelGeneration: "4" });
      await writeState("opencode", "bad-label", { label: "x".repeat(61), completionId: "c", sourceGeneration: "3", labelGeneration: "2" });
      await writeState("opencode", "over-range", { label: "", completionId: "c", sourceGeneration: "18446744073709551616", labelGeneration: "0" });
      await herald.services.directory.createSession({ harness: "claude-code", sessionId: "never-reported", ownerPersonId: personId });
    });
    afterAll(async () => {
      await herald?.close();
      await db?.drop();
    });

    it("reports a known session exactly, generations as decimal strings", async () => {
      expect(await query("pi", "native-1")).toEqual({
        out: line({
          status: "known",
          harness: "pi",
          session_id: "native-1",
          label: "Fix Login Redirect Loop",
          completion_id: "entry-2",
          source_generation: "2",
          label_generation: "1",
        }),
        bytes: expect.any(Number),
        code: 0,
      });
    });

    it("reads a generation of 2^64-1 written straight to the store back exactly, within 2048 bytes", async () => {
      const r = await query("codex", "huge");
      expect(r.out).toBe(
        line({
          status: "known",
          harness: "codex",
          session_id: "huge",
          label: 'Quote "Heavy" Label',
          completion_id: "cmp-max",
          source_generation: MAX,
          label_generation: "18446744073709551614",
        }),
      );
      expect(JSON.parse(r.out).source_generation).toBe(MAX);
    });

    it("stays within 2048 bytes for the largest record the rules allow", async () => {
      const id = `_${"x".repeat(127)}`;
      const label = `${'"'.repeat(19)} ${"\\".repeat(19)} ${'"'.repeat(20)}`; // 60 bytes, each escaped to two
      const completionId = '"\\'.repeat(64);
      await writeState("claude-code", id, { label, completionId, sourceGeneration: MAX, labelGeneration: MAX });
      const r = await query("claude-code", id);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out)).toEqual({
        version: 1,
        status: "known",
        harness: "claude-code",
        session_id: id,
        label,
        completion_id: completionId,
        source_generation: MAX,
        label_generation: MAX,
      });
      expect(r.bytes).toBe(Buffer.byteLength(r.out));
      expect(r.bytes).toBeLessThanOrEqual(2048);
      expect(r.out.endsWith("}\n")).toBe(true);
    });

    it("reports missing for an unknown session and for one that never counted an exchange", async () => {
      expect((await query("pi", "nobody")).out).toBe(line({ status: "missing", harness: "pi", session_id: "nobody" }));
      expect((await query("claude-code", "never-reported")).out).toBe(line({ status: "missing", harness: "claude-code", session_id: "never-reported" }));
      expect((await query("codex", "native-1")).out).toBe(line({ status: "missing", harness: "codex", session_id: "native-1" })); // exact pair
    });

    it.each(["corrupt-gen", "label-ahead", "bad-label", "over-range"])("reports unavailable for an invalid record (%s)", async (id) => {
      expect(await query("opencode", id)).toMatchObject({ out: line({ status: "unavailable", harness: "opencode", session_id: id }), code: 0 });
    });

    it("reads the store named by --database-url over DATABASE_URL", async () => {
      const r = await metadata(["--harness", "pi", "--session-id", "native-1", "--database-url", db.url], { DATABASE_URL: "file:/nonexistent/herald.db" });
      expect(JSON.parse(r.out).status).toBe("known");
    });

    if (provider.name === "sqlite") {
      it("reports missing for a missing file and unavailable for a corrupt one, creating nothing", async () => {
        const dir = mkdtempSync(join(tmpdir(), "herald-meta-"));
        const missing = await metadata(["--harness", "pi", "--session-id", "s1", "--database-url", `file:${join(dir, "nested", "herald.db")}`]);
        expect(missing.out).toBe(line({ status: "missing", harness: "pi", session_id: "s1" }));
        expect(readdirSync(dir)).toEqual([]);
        writeFileSync(join(dir, "herald.db"), "this is not a SQLite database ".repeat(200));
        const corrupt = await metadata(["--harness", "pi", "--session-id", "s1", "--database-url", `file:${join(dir, "herald.db")}`]);
        expect(corrupt.out).toBe(line({ status: "unavailable", harness: "pi", session_id: "s1" }));
        expect(readdirSync(dir)).toEqual(["herald.db"]);
        const folder = await metadata(["--harness", "pi", "--session-id", "s1", "--database-url", `file:${dir}`]);
        expect(folder.out).toBe(line({ status: "unavailable", harness: "pi", session_id: "s1" }));
        rmSync(dir, { recursive: true });
      });
    } else {
      it("reports missing for a missing schema or database and unavailable for an unreachable server", async () => {
        const noSchema = new URL(postgresBaseUrl);
        noSchema.searchParams.set("schema", "herald_no_such_schema");
        expect((await metadata(["--harness", "pi", "--session-id", "s1", "--database-url", noSchema.toString()])).out).toBe(
          line({ status: "missing", harness: "pi", session_id: "s1" }),
        );
        const noDb = new URL(postgresBaseUrl);
        noDb.pathname = "/herald_no_such_database";
        expect((await metadata(["--harness", "pi", "--session-id", "s1", "--database-url", noDb.toString()])).out).toBe(
          line({ status: "missing", harness: "pi", session_id: "s1" }),
        );
        const closed = await metadata(["--harness", "pi", "--session-id", "s1", "--database-url", "postgresql://root@127.0.0.1:1/test"]);
        expect(closed).toMatchObject({ out: line({ status: "unavailable", harness: "pi", session_id: "s1" }), code: 0 });
      });
    }

    it("writes nothing: file bytes and times, files beside the store and every table's rows stay as they were", async () => {
      const queries = async () => {
        await query("pi", "native-1"); // known
        await query("pi", "nobody"); // missing
        await query("opencode", "corrupt-gen"); // unavailable
        await metadata(["--harness", "pi", "--session-id", ".bad", "--database-url", db.url]); // invalid
      };
      const sqliteFile = provider.name === "sqlite" ? sqliteFileOf(db.url) : null;
      const fileState = () => {
        if (!sqliteFile) return null;
        const dir = join(sqliteFile, "..");
        const files = readdirSync(dir).sort();
        return {
          files,
          main: createHash("sha256").update(readFileSync(sqliteFile)).digest("hex"),
          mtimes: files.filter((f) => !f.endsWith("-shm")).map((f) => [f, statSync(join(dir, f)).mtimeMs]),
        };
      };

      // With the server open (SQLite reads through its write-ahead log) ...
      let before = { rows: await rowCounts(db.url), files: fileState() };
      await queries();
      expect({ rows: await rowCounts(db.url), files: fileState() }).toEqual(before);

      // ... and with no server: the WAL is checkpointed away, and nothing may bring it back.
      await herald.close();
      before = { rows: await rowCounts(db.url), files: fileState() };
      // The server keeps attachment files in a directory beside its database; nothing else stays.
      if (sqliteFile) expect(before.files!.files).toEqual(["herald.db", "herald.db-assets"]);
      await queries();
      expect({ rows: await rowCounts(db.url), files: fileState() }).toEqual(before);
      expect((await query("pi", "native-1")).out).toContain('"status":"known"');
      herald = await createHerald({ databaseUrl: db.url, logger: pino({ level: "silent" }) });
    });
  });
}

/**
 * Rows of every table in the store, read through a separate read-only connection. On SQLite in a
 * process of its own: a closed connection of this process would hold the file open until its
 * statements are collected (storage/connection/sqlite-driver.ts), and keep the server's close from
 * letting the write-ahead log go.
 */
async function rowCounts(url: string): Promise<Record<string, number>> {
  if (url.startsWith("file:")) {
    const file = sqliteFileOf(url);
    // Read-only; an immutable connection when no server has it open (a read-only connection to a
    // WAL store would add files beside it).
    const script = `
      import { SqliteConnection } from ${JSON.stringify(new URL("../src/storage/connection/sqlite-driver.ts", import.meta.url).pathname)};
      const [file, immutable] = [process.argv[1], process.argv[2] === "true"];
      const db = SqliteConnection.open(file, { readOnly: true, timeoutMs: 5_000, immutable });
      const counts = {};
      for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all())
        counts[name] = Number(db.prepare(\`SELECT count(*) AS n FROM "\${name}"\`).get().n);
      process.stdout.write(JSON.stringify(counts));`;
    const args = ["--import", "tsx", "--input-type=module", "-e", script, file, String(!existsSync(`${file}-wal`))];
    return JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8" })) as Record<string, number>;
  }
  const counts: Record<string, number> = {};
  const schema = new URL(url).searchParams.get("schema")!;
  const client = new pg.Client({ connectionString: postgresBaseUrl });
  await client.connect();
  const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [schema]);
  for (const { table_name } of tables.rows) {
    counts[table_name] = Number((await client.query(`SELECT count(*) AS n FROM "${schema}"."${table_name}"`)).rows[0].n);
  }
  await client.end();
  return counts;
}
