// A live view whose server goes away: it tries again once per backoff step (exponential up to
// 30 s), whether the server answers 503 or nothing listens on its port, and starts from the first
// step again once an event came through. A real Herald sits behind a local HTTP relay the test
// switches between passing, answering 503 and not listening; the view's reconnect clock is the
// test's, so every step is stepped through without waiting for it.
import { createServer, request, type Server } from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPersonClient, createProducerClient, type LiveView, type ProducerClient, type ReconnectClock } from "../src/index.ts";
import { eventually, startServer, type TestServer } from "./support/server.ts";

type Mode = "pass" | "503";

/** A relay in front of Herald that can answer 503 or stop listening altogether. */
async function startRelay(target: string) {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let mode: Mode = "pass";
  const server: Server = createServer((req, res) => {
    if (mode === "503") {
      res.writeHead(503, { "content-type": "text/plain" }).end("unavailable");
      return;
    }
    const forwarded = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on("error", () => res.destroy());
    req.pipe(forwarded);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const cut = () => sockets.forEach((socket) => socket.destroy());
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    set mode(value: Mode) {
      mode = value;
    },
    /** Drops every open connection (the open stream with it). */
    cut,
    async stopListening() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        cut();
      });
    },
    async listen() {
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    },
    close: () => new Promise<void>((resolve) => (server.listening ? (server.close(() => resolve()), cut()) : resolve())),
  };
}

/** A reconnect clock the test drives: it records each requested delay and runs it on demand. */
function steppedClock(stableMs: number) {
  const pending = new Map<number, { ms: number; callback: () => void }>();
  let next = 0;
  let waiter: (() => void) | null = null;
  const clock: ReconnectClock = {
    setTimeout(callback, ms) {
      const handle = ++next;
      pending.set(handle, { ms, callback });
      if (ms !== stableMs) waiter?.();
      return handle;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
    random: () => 1, // the top of each step's jitter range: the delay is the step's ceiling
  };
  const backoffStep = () => [...pending].find(([, timer]) => timer.ms !== stableMs);
  return {
    clock,
    /** Waits until a reconnect is scheduled and returns its delay (without running it). */
    async scheduled(): Promise<number> {
      while (!backoffStep()) await new Promise<void>((resolve) => (waiter = resolve));
      waiter = null;
      return backoffStep()![1].ms;
    },
    /** Runs the scheduled reconnect now. */
    run() {
      const [handle, timer] = backoffStep()!;
      pending.delete(handle);
      timer.callback();
    },
  };
}

describe("live view reconnects", () => {
  const STABLE_MS = 3_600_000;
  let server: TestServer;
  let producer: ProducerClient;
  let relay: Awaited<ReturnType<typeof startRelay>>;

  beforeAll(async () => {
    server = await startServer();
    producer = createProducerClient({ url: server.url, token: server.producerKey });
    relay = await startRelay(server.url);
  });
  afterAll(async () => {
    producer?.close();
    await relay?.close();
    await server?.close();
  });

  async function publish(personId: string, key: string) {
    const result = await producer.publish({ scope: "PERSON", personId, key, title: key, source: { plugin: "reconnect" } });
    if (!result.ok) throw new Error(result.message);
    return result.notification;
  }

  it("backs off once per step to 30 s against 503 and a closed port, and starts over after an event", async () => {
    const person = await server.newPerson("Reconnect");
    let streamRequests = 0;
    const counting: typeof fetch = (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith("/stream")) streamRequests++;
      return fetch(input, init);
    };
    const client = createPersonClient({ url: relay.url, token: person.token, fetch: counting });
    const stepped = steppedClock(STABLE_MS);
    const view: LiveView = client.live({}, { clock: stepped.clock, stableMs: STABLE_MS, environment: null });
    view.subscribe(() => undefined);
    const first = await publish(person.id, "before");
    await eventually(() => view.current.items.some((n) => n.id === first.id));

    // 503 for everything, and the open stream cut.
    relay.mode = "503";
    relay.cut();
    const delays = [await stepped.scheduled()];
    for (let step = 0; step < 8; step++) {
      const before = streamRequests;
      stepped.run();
      delays.push(await stepped.scheduled());
      // One attempt per step: exactly one new stream request before the next step was scheduled.
      expect(streamRequests - before).toBe(1);
    }
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(view.current.connection).toBe("offline");

    // Back: the stream opens, an event comes through, and the next drop starts at the first step.
    relay.mode = "pass";
    stepped.run();
    const second = await publish(person.id, "after-503");
    await eventually(() => view.current.items.some((n) => n.id === second.id));
    expect(view.current.connection).toBe("live");

    // Nothing listening on the port at all.
    await relay.stopListening();
    const closedDelays = [await stepped.scheduled()];
    for (let step = 0; step < 4; step++) {
      const before = streamRequests;
      stepped.run();
      closedDelays.push(await stepped.scheduled());
      expect(streamRequests - before).toBe(1);
    }
    expect(closedDelays).toEqual([500, 1_000, 2_000, 4_000, 8_000]);

    await relay.listen();
    stepped.run();
    const third = await publish(person.id, "after-closed");
    await eventually(() => view.current.items.some((n) => n.id === third.id));
    expect(view.current.connection).toBe("live");
    view.close();
    client.close();
  });
});
