// The kit against the real `herald` binary: what every suite and benchmark builds on.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempSqlite, eventually, heraldCli, type SpawnedHerald, spawnHerald, type TempSqlite } from "../src/index.ts";

const run = promisify(execFile);

describe("spawnHerald and heraldCli", () => {
  let store: TempSqlite;
  let herald: SpawnedHerald | undefined;
  beforeAll(() => {
    store = createTempSqlite("herald-testkit-");
  });
  afterAll(async () => {
    await herald?.kill();
    store.remove();
  });

  it("creates a person and a producer key, then serves them once ready", async () => {
    const cli = heraldCli({ DATABASE_URL: store.url });
    const person = await cli.createPerson("Ada");
    const key = await cli.createProducerKey("testkit");
    expect(person.token).toMatch(/^herald_pt_/);
    expect(person.signInCode.length).toBeGreaterThan(20);
    expect(key).toMatch(/^herald_pk_/);

    herald = await spawnHerald({ env: { DATABASE_URL: store.url } });
    expect(herald.url).toBe(`${herald.origin}/graphql`);
    expect(herald.port).toBeGreaterThan(0);
    // Ready means serving: no retry needed for the first request.
    const health = await fetch(`${herald.origin}/health`);
    expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
    const viewer = await fetch(herald.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${person.token}` },
      body: JSON.stringify({ query: "{ viewer { id name } }" }),
    });
    expect((await viewer.json()).data.viewer).toEqual({ id: person.id, name: "Ada" });
  });

  it("stops gracefully, and kills like a crash", async () => {
    await herald!.stop();
    expect(herald!.process.exitCode).toBe(0);
    herald = await spawnHerald({ env: { DATABASE_URL: store.url } });
    await herald.kill();
    expect(herald.process.signalCode).toBe("SIGKILL");
  });

  it("fails fast with the process's own words when herald cannot start", async () => {
    await expect(spawnHerald({ env: { DATABASE_URL: "mysql://nowhere/herald" } })).rejects.toThrow(/exited during start[\s\S]*DATABASE_URL must be/);
  });

  it("rejects a failing command with its output", async () => {
    const failed = heraldCli({ DATABASE_URL: store.url }).run("revoke", "herald_pk_unknown");
    await expect(failed).rejects.toThrow(/revoke herald_pk_unknown failed \(exit 1\)[\s\S]*revoked 0/);
    await expect(failed).rejects.toMatchObject({ code: 1, stdout: "revoked 0\n" });
  });
});

describe("a process that forgets its server", () => {
  // A child node process starts a herald through the kit, then ends without stopping it.
  for (const [how, end] of [
    ["exits", "process.exit(0)"],
    ["is terminated", 'process.kill(process.pid, "SIGTERM")'],
  ]) {
    it(`does not leave it running when it ${how}`, async () => {
      const store = createTempSqlite("herald-testkit-");
      try {
        const script = `import { spawnHerald } from "${new URL("../src/index.ts", import.meta.url).pathname}";
          const herald = await spawnHerald({ env: { DATABASE_URL: ${JSON.stringify(store.url)} } });
          console.log(herald.process.pid);
          ${end};`;
        const ended = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script]).then(
          (r) => ({ stdout: r.stdout, signal: null }),
          (e: { stdout: string; signal: string | null }) => e,
        );
        expect(ended.signal).toBe(how === "exits" ? null : "SIGTERM");
        const pid = Number(ended.stdout.trim().split("\n").at(-1));
        expect(pid).toBeGreaterThan(0);
        await eventually(() => !alive(pid), 20_000, `herald ${pid} to be gone`);
      } finally {
        store.remove();
      }
    });
  }
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
