// The failure-contained tool sink against a real server, a server that is down, one that answers
// 500 and one that never answers: create() never rejects, every failure reaches onError once,
// and at most maxInFlight publishes wait at once.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@herald/testkit";
import { createToolNotificationSink, type ToolSinkFailure } from "../src/index.ts";
import { eventually, startClients, type TestClients } from "./support/server.ts";

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, server };
}

const note = (key: string) => ({
  key,
  title: "Tool warning",
  body: "The tool used its fallback mode.",
  severity: "WARNING" as const,
  source: { plugin: "sdk-tests" },
});

describe("tool notification sink", () => {
  let c: TestClients;
  let sessionId: string;
  const opened: Server[] = [];
  beforeAll(async () => {
    c = await startClients();
    sessionId = (await c.producer.createSession({ harness: "pi", sessionId: "tool-sink", ownerPersonId: c.server.person.id })).id;
  }, 300_000); // starting a server process (migrate, CLI, serve) is slow on a busy machine
  afterAll(async () => {
    for (const server of opened) {
      server.closeAllConnections();
      server.close();
    }
    await c?.close();
  });

  it("publishes a SESSION notification bound to its session and request", async () => {
    const failures: ToolSinkFailure[] = [];
    const sink = createToolNotificationSink({
      url: c.server.url,
      producerKey: c.server.producerKey,
      sessionId,
      requestId: "req-1",
      onError: (f) => failures.push(f),
    });
    const created = await sink.create(note("tool:ok"));
    expect(created).toMatchObject({ scope: "SESSION", sessionId, key: "tool:ok", requestId: "req-1" });
    expect(failures).toEqual([]);
    sink.close();
  });

  it("returns null and reports a refused record with the field, without throwing", async () => {
    const failures: ToolSinkFailure[] = [];
    const sink = createToolNotificationSink({ url: c.server.url, producerKey: c.server.producerKey, sessionId, onError: (f) => failures.push(f) });
    await expect(sink.create({ ...note("tool:bad"), title: "" })).resolves.toBeNull();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ kind: "validation", field: "title", key: "tool:bad" });
    sink.close();
  });

  it("returns null and reports when the server is down, even when the error callback throws", async () => {
    const failures: ToolSinkFailure[] = [];
    const down = `http://127.0.0.1:${await freePort()}/graphql`;
    const sink = createToolNotificationSink({ url: down, producerKey: c.server.producerKey, sessionId, onError: (f) => failures.push(f) });
    await expect(sink.create(note("tool:down"))).resolves.toBeNull();
    expect(failures).toMatchObject([{ kind: "network", key: "tool:down" }]);
    const throwing = createToolNotificationSink({
      url: down,
      producerKey: c.server.producerKey,
      sessionId,
      onError: () => {
        throw new Error("the callback itself fails");
      },
    });
    await expect(throwing.create(note("tool:down"))).resolves.toBeNull();
    sink.close();
    throwing.close();
  });

  it("reports a server error as server", async () => {
    const broken = await listen((_req, res) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ errors: [{ message: "Unexpected error." }] }));
    });
    opened.push(broken.server);
    const failures: ToolSinkFailure[] = [];
    const sink = createToolNotificationSink({ url: broken.url, producerKey: c.server.producerKey, sessionId, onError: (f) => failures.push(f) });
    await expect(sink.create(note("tool:500"))).resolves.toBeNull();
    expect(failures).toMatchObject([{ kind: "server", key: "tool:500" }]);
    sink.close();
  });

  it("gives up after the timeout and drops what exceeds maxInFlight instead of queueing it", async () => {
    let arrived = 0;
    const hung = await listen(() => void arrived++); // reads the request, never answers
    opened.push(hung.server);
    const failures: ToolSinkFailure[] = [];
    const sink = createToolNotificationSink({
      url: hung.url,
      producerKey: c.server.producerKey,
      sessionId,
      timeoutMs: 2_000, // long enough that both are still waiting when the third comes
      maxInFlight: 2,
      onError: (f) => failures.push(f),
    });
    const first = sink.create(note("tool:hung-1"));
    const second = sink.create(note("tool:hung-2"));
    await eventually(() => arrived === 2, 10_000, "both publishes to reach the server");
    expect(sink.inFlight).toBe(2);
    await expect(sink.create(note("tool:hung-3"))).resolves.toBeNull();
    expect(failures).toMatchObject([{ kind: "overloaded", key: "tool:hung-3" }]);
    await expect(Promise.all([first, second])).resolves.toEqual([null, null]);
    expect(failures.slice(1).map((f) => f.kind)).toEqual(["timeout", "timeout"]);
    expect(sink.inFlight).toBe(0);
    sink.close();
  });
});
