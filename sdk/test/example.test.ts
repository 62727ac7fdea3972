// The README's producer example is a real program: it must match examples/ and run.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPersonClient, type NotificationEvent } from "../src/index.ts";
import { eventually, startServer, type TestServer } from "./support/server.ts";

const run = promisify(execFile);
const sdkRoot = join(import.meta.dirname, "..");

describe("README example", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it("is the file the tests run", () => {
    const readme = readFileSync(join(sdkRoot, "README.md"), "utf8");
    const block = /<!-- example: examples\/long-operation\.ts[^>]*-->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBe(readFileSync(join(sdkRoot, "examples", "long-operation.ts"), "utf8"));
  });

  it("reports a long operation with heartbeats and resolves it", async () => {
    const person = createPersonClient({ url: server.url, token: server.person.token });
    const events: NotificationEvent[] = [];
    // From the head cursor, so events published before the stream attaches are replayed, not missed.
    const stop = person.events(await person.eventsCursor(), { next: (e) => events.push(e), error: () => undefined, complete: () => undefined });
    const { stdout } = await run(process.execPath, ["--import", "tsx", join(sdkRoot, "examples", "long-operation.ts")], {
      cwd: sdkRoot,
      env: { ...process.env, HERALD_URL: server.url, HERALD_PRODUCER_KEY: server.producerKey, HERALD_PERSON_ID: server.person.id },
    });
    expect(stdout).toContain("revision 3: uploading");
    expect(stdout).toContain("resolved at revision 5");
    await eventually(() => events.some((e) => e.type === "RESOLVED"));
    stop();
    const own = events.filter((e) => e.notification.key === "example:export" && e.type !== "DELIVERED");
    expect(own.map((e) => `${e.type}:${e.notification.revision}`)).toEqual(["CREATED:1", "UPDATED:2", "UPDATED:3", "UPDATED:4", "RESOLVED:5"]);
    expect(own.at(-1)!.notification).toMatchObject({ status: "RESOLVED", resolution: { actionId: "completed" }, operation: { state: "done" } });
    person.close();
  });
});
