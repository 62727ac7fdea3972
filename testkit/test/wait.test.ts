import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createTempDir, createTempSqlite, eventually, freePort, removeAllTempDirs } from "../src/index.ts";

describe("eventually", () => {
  it("resolves as soon as the check holds", async () => {
    let calls = 0;
    await eventually(() => ++calls === 3, 5_000);
    expect(calls).toBe(3);
  });

  it("throws when the time is up, naming what it waited for, so a forgotten assertion cannot pass", async () => {
    const started = Date.now();
    await expect(eventually(() => false, 200, "the impossible")).rejects.toThrow("timed out after 200 ms waiting for the impossible");
    // Kept: giving up no earlier than its deadline is this clock helper's own contract; a lower
    // bound cannot fail on a slow machine.
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it("lets a failing check's error through instead of retrying it", async () => {
    await expect(eventually(() => Promise.reject(new Error("broken check")), 1_000)).rejects.toThrow("broken check");
  });
});

describe("freePort", () => {
  it("returns a port a server can listen on", async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
    expect((server.address() as { port: number }).port).toBe(port);
    await new Promise((resolve) => server.close(resolve));
  });
});

describe("temporary directories", () => {
  it("are removed by their owner, and the rest all at once", () => {
    const own = createTempDir("herald-testkit-");
    const store = createTempSqlite("herald-testkit-");
    const left = createTempDir("herald-testkit-");
    expect(store.url).toBe(`file:${store.file}`);
    expect([own.path, left.path].every(existsSync)).toBe(true);
    own.remove();
    expect(existsSync(own.path)).toBe(false);
    removeAllTempDirs();
    expect(existsSync(left.path)).toBe(false);
    expect(existsSync(store.file.replace(/\/herald\.db$/, ""))).toBe(false);
  });
});
