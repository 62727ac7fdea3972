// The `herald` launcher (bin/herald.js): it runs the compiled build, loads only the store in use
// and only what a light command needs, and gives `serve` its V8 flags however node was started.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually, heraldBin, heraldNodeFlags, type Spawn, spawnHerald, stopProcess } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { heraldCommand } from "./support/processes.ts";
import { providers, type TestDatabase } from "./support/providers.ts";

const traceHook = join(import.meta.dirname, "support", "module-trace.mjs");
const server = join(import.meta.dirname, "..");
const traces = mkdtempSync(join(tmpdir(), "herald-trace-"));
afterAll(() => rmSync(traces, { recursive: true, force: true }));

let traceCount = 0;
/** A fresh file for one process's module trace, and a reader of what it names (paths under the repo, package names). */
function traceFile() {
  const file = join(traces, `trace-${++traceCount}.txt`);
  return {
    env: { MODULE_TRACE_FILE: file },
    modules: () =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter((url) => url.startsWith("file://"))
        .map((url) => decodeURIComponent(new URL(url).pathname)),
  };
}

const packages = (modules: string[]) => new Set(modules.flatMap((path) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? []));
const ownModules = (modules: string[]) =>
  modules.filter((path) => path.startsWith(server) && !path.includes("/node_modules/")).map((path) => path.slice(server.length + 1));

const storeModules = {
  sqlite: { packages: ["@photostructure/sqlite"], client: "dist/storage/connection/sqlite-store.js" },
  postgresql: { packages: ["pg"], client: "dist/storage/connection/pg-store.js" },
};

function runNode(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

for (const provider of providers) {
  describe.skipIf(!provider.available)(`the launcher on ${provider.name}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await provider.createDatabase();
    });
    afterAll(async () => db?.drop());

    it("serves from the compiled build and loads only this store's client and driver", async () => {
      const trace = traceFile();
      const served = await spawnHerald({ env: { DATABASE_URL: db.url, ...trace.env }, nodeArgs: ["--import", traceHook] });
      try {
        expect((await fetch(`${served.origin}/health`)).status).toBe(200);
      } finally {
        await served.stop();
      }
      const modules = trace.modules();
      const own = ownModules(modules);
      expect(own).toContain("dist/cli/main.js");
      expect(own).toContain("dist/app.js");
      expect(own.filter((path) => !path.startsWith("dist/") && !path.startsWith("bin/"))).toEqual([]);
      const loaded = packages(modules);
      expect(loaded.has("tsx")).toBe(false);
      const other = provider.name === "sqlite" ? storeModules.postgresql : storeModules.sqlite;
      const mine = storeModules[provider.name];
      for (const name of mine.packages) expect(loaded.has(name), name).toBe(true);
      for (const name of other.packages) expect(loaded.has(name), name).toBe(false);
      expect(own.some((path) => path.startsWith(mine.client))).toBe(true);
      expect(own.filter((path) => path.startsWith(other.client))).toEqual([]);
    });

    it("starts the scanner's selection thread from its compiled module, without tsx", async () => {
      await heraldCommand(["migrate"], { DATABASE_URL: db.url });
      const compiled = (await import(
        join(server, "dist", "background", "scanner", "selection-thread.js")
      )) as typeof import("../src/background/scanner/selection-thread.ts");
      const thread = new compiled.SelectionThread({ databaseUrl: db.url, options: { dateLeadDays: 7, staleEngagementDays: 14, timeZone: "UTC" } });
      try {
        const selection = await thread.select(new Date());
        expect(selection).toMatchObject({ due: [], facts: 0, engagements: 0 });
        expect(selection.threadId).toBeGreaterThan(0);
      } finally {
        await thread.close();
      }
    });
  });
}

describe("light commands", () => {
  it("session-metadata loads its reader, not the command line, configuration, server or a store", async () => {
    const trace = traceFile();
    const store = join(traces, "absent.db");
    const result = await runNode(["--import", traceHook, heraldBin, "session-metadata", "--harness", "pi", "--session-id", "s1"], {
      DATABASE_URL: `file:${store}`,
      ...trace.env,
    });
    expect([result.code, result.stderr]).toEqual([0, ""]);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: "missing", harness: "pi", session_id: "s1" });
    const modules = trace.modules();
    expect(ownModules(modules)).toContain("dist/cli/session-metadata.js");
    expect(ownModules(modules).filter((path) => /dist\/(cli\/main|config|app|logger)\.js$|dist\/storage\/(sqlite|pg)-store\.js/.test(path))).toEqual([]);
    expect([...packages(modules)]).toEqual([]);
  });

  it("publish loads the producer commands and commander only", async () => {
    const trace = traceFile();
    // Nothing listens on port 1: the command fails after parsing, having loaded all it needs.
    const result = await runNode(["--import", traceHook, heraldBin, "publish", "--person", "p1", "--key", "k", "--title", "t", "--plugin", "ci"], {
      HERALD_URL: "http://127.0.0.1:1",
      HERALD_PRODUCER_KEY: "herald_pk_x",
      ...trace.env,
    });
    expect(result.code).toBe(1);
    const modules = trace.modules();
    expect(ownModules(modules)).toContain("dist/cli/producer-main.js");
    expect(ownModules(modules).filter((path) => /dist\/(cli\/main|config|app|logger)\.js$|dist\/storage\/(sqlite|pg)-store\.js/.test(path))).toEqual([]);
    expect([...packages(modules)]).toEqual(["commander"]);
  });

  it("mcp loads the protocol and an HTTP client, never a store, and ends with its stdin", async () => {
    const trace = traceFile();
    const result = await runNode(["--import", traceHook, heraldBin, "mcp"], trace.env);
    expect([result.code, result.stdout]).toEqual([0, ""]);
    const modules = trace.modules();
    expect(ownModules(modules)).toContain("dist/cli/mcp.js");
    expect(ownModules(modules).filter((path) => /dist\/(cli\/main|config|app|logger)\.js$|dist\/storage\//.test(path))).toEqual([]);
    const loaded = packages(modules);
    expect(loaded.has("@modelcontextprotocol/sdk")).toBe(true);
    for (const store of ["pg", "@photostructure/sqlite", "better-sqlite3", "@prisma/client", "@prisma/adapter-pg", "@prisma/adapter-better-sqlite3"])
      expect(loaded.has(store), store).toBe(false);
  });

  it("help on the full command line lists the producer commands with the rest", async () => {
    const help = await heraldCommand(["--help"], {});
    for (const command of ["serve", "migrate", "publish", "update", "resolve", "expire", "emit", "mcp"]) expect(help.stdout).toContain(command);
  });
});

describe("serve's V8 flags", () => {
  const flags = heraldNodeFlags("serve");
  // `node bin/herald.js serve`, as a process manager or a Dockerfile would start it: no flags.
  const withoutFlags: Spawn = (command, args, env) =>
    spawn(
      command,
      args.filter((arg) => !flags.includes(arg)),
      { env, stdio: ["ignore", "pipe", "pipe"] },
    );
  let db: TestDatabase;
  beforeAll(async () => {
    db = await providers[0]!.createDatabase();
  });
  afterAll(async () => db?.drop());

  const readyPid = (output: string) => Number(/^HERALD_READY (.*)$/m.exec(output)?.[1] && JSON.parse(/^HERALD_READY (.*)$/m.exec(output)![1]!).pid);
  const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");

  it("reach the server when node was started without them, and a signal to the launcher stops it", async () => {
    expect(flags.length).toBeGreaterThan(0);
    const served = await spawnHerald({ env: { DATABASE_URL: db.url }, spawn: withoutFlags });
    const launcher = served.process as ChildProcess;
    const pid = readyPid(served.output);
    expect(pid).not.toBe(launcher.pid);
    for (const flag of flags) expect(cmdline(launcher.pid!)).not.toContain(flag);
    for (const flag of flags) expect(cmdline(pid)).toContain(flag);
    // More grace than the server's own 10 s shutdown bound: on a loaded machine the kit's default
    // (10 s, then SIGKILL) could kill the launcher while its server is still shutting down cleanly.
    await stopProcess(launcher, "SIGTERM", 30_000);
    // The launcher re-raises a signal its server died of: the signal and the output tell which.
    expect({ code: launcher.exitCode, signal: launcher.signalCode }, served.output).toEqual({ code: 0, signal: null });
    await eventually(() => !alive(pid), 20_000, `server ${pid} to stop`);
  });

  it("the server stops when its launcher is killed", async () => {
    const served = await spawnHerald({ env: { DATABASE_URL: db.url }, spawn: withoutFlags });
    const pid = readyPid(served.output);
    expect(alive(pid)).toBe(true);
    await served.kill();
    await eventually(() => !alive(pid), 20_000, `server ${pid} to stop`);
  });

  it("are the ones the systemd unit starts node with", () => {
    const unit = readFileSync(join(server, "..", "deploy", "systemd", "herald@.service"), "utf8");
    const execStart = /^ExecStart=(.*)$/m.exec(unit)![1]!.split(/\s+/);
    expect(execStart.slice(1, 1 + flags.length)).toEqual(flags);
  });

  it("a SIGTERM sent the moment the ready line is read stops it cleanly, every time", async () => {
    // The ready line once came before the signal handlers: a signal sent on reading it could meet
    // the default action and end the server by SIGTERM (about one start in three on this machine).
    for (let attempt = 0; attempt < 5; attempt++) {
      const served = await spawnHerald({ env: { DATABASE_URL: db.url } });
      const server = served.process as ChildProcess;
      const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => server.once("exit", (code, signal) => resolve([code, signal])));
      server.kill("SIGTERM");
      expect(await ended, `attempt ${attempt}`).toEqual([0, null]);
    }
  });

  it("a repeated SIGTERM during the graceful stop does not cut it short", async () => {
    const served = await spawnHerald({ env: { DATABASE_URL: db.url } });
    const server = served.process as ChildProcess;
    const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => server.once("exit", (code, signal) => resolve([code, signal])));
    const health = `${served.origin}/health`;
    server.kill("SIGTERM");
    // Once the port is closed the stop is under way (the store still closing): a second SIGTERM
    // now, as a process manager repeating itself or a launcher forwarding one would send.
    await eventually(
      () =>
        fetch(health).then(
          () => false,
          () => true,
        ),
      20_000,
      "the port to close",
    );
    server.kill("SIGTERM");
    expect(await ended).toEqual([0, null]);
  });

  it("are the launcher's own when the kit starts serve, so its process is the server", async () => {
    const served = await spawnHerald({ env: { DATABASE_URL: db.url } });
    try {
      expect(readyPid(served.output)).toBe(served.process.pid);
      for (const flag of flags) expect(cmdline(served.process.pid!)).toContain(flag);
    } finally {
      await served.stop();
    }
  });
});
