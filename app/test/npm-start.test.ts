// The README's first command, `npm start` (scripts/start.ts, which runs scripts/generate-when-changed.ts):
// generation runs only when its inputs changed, and when the Herald server dies under it, it says
// so and fails instead of leaving silently with the dashboard still running.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { createTempSqlite, eventually, exited, freePort, stopProcess } from "@herald/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { alive, childrenOf } from "./support/process-tree";

const root = join(import.meta.dirname, "..", "..");
const started: ChildProcess[] = [];
afterAll(async () => {
  for (const child of started) await stopProcess(child, "SIGKILL");
});

describe("npm start", () => {
  it("regenerates only when an input changed", () => {
    const run = () => spawnSync(process.execPath, ["--import", "tsx", "scripts/generate-when-changed.ts"], { cwd: root, encoding: "utf8" });
    // The first run may generate (no stamp yet, or inputs changed since); the second has nothing to do.
    expect(run().status).toBe(0);
    const second = run();
    expect(second.status).toBe(0);
    expect(second.stdout).toContain("Generated files are up to date");
    expect(second.stdout).not.toContain("Generated Prisma Client");
  }, 240_000);

  it("says so and fails when the Herald server dies under it, stopping the dashboard too", async () => {
    const store = createTempSqlite("herald-npm-start-");
    const [port, appPort] = [await freePort(), await freePort()];
    const start = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: store.url, PORT: String(port), APP_PORT: String(appPort), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.push(start);
    let stdout = "";
    let stderr = "";
    start.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
    start.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    const ended = new Promise<number | null>((resolve) => start.once("exit", (code) => resolve(code)));
    try {
      // The banner's last line: the lines before it may reach the pipe in an earlier chunk.
      await eventually(() => /Herald is running[\s\S]*\n\n/.test(stdout) || exited(start), 200_000, "the start block");
      expect(stdout, stderr).toContain(`Dashboard:        http://127.0.0.1:${appPort}`);
      expect(stdout).toMatch(/Sign in/);
      const children = childrenOf(start.pid!);
      const server = children.find((c) => c.cmdline.includes("herald.js") && c.cmdline.includes(" serve"));
      const dashboard = children.find((c) => c.cmdline.includes(join("app", "build")));
      expect(server, JSON.stringify(children)).toBeDefined();
      expect(dashboard, JSON.stringify(children)).toBeDefined();

      process.kill(server!.pid, "SIGKILL");
      expect(await ended).toBe(1);
      expect(stderr).toContain("The Herald server stopped (signal SIGKILL); stopping npm start.");
      await eventually(() => !alive(dashboard!.pid), 15_000, "the dashboard to stop with npm start");
    } finally {
      store.remove();
    }
  }, 300_000);
});
