// Downloads give way to other requests (transport/http/download-priority.ts): while another
// request is in flight or ended within the busy window, each chunk waits its time at the paced
// rate; otherwise it goes at once. Streams and downloads do not count as other requests.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { eventually } from "@herald/testkit";
import { createSchema, createYoga } from "graphql-yoga";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BUSY_WINDOW_MS, givingWay, RequestsInFlight, useRequestsInFlight } from "../../src/transport/http/download-priority.ts";

describe("RequestsInFlight", () => {
  const MiB = 1024 * 1024;
  /** A clock the test moves. */
  const clock = () => {
    let now = 0;
    return { now: () => now, move: (ms: number) => (now += ms) };
  };

  it("paces a chunk while a request is in flight and for a second after the last one ends, and not before or after", () => {
    const time = clock();
    const requests = new RequestsInFlight(8 * MiB, time.now);
    expect(requests.delayFor(256 * 1024)).toBe(0);
    const endA = requests.begin();
    const endB = requests.begin();
    expect(requests.delayFor(256 * 1024)).toBe(31.25);
    endA();
    endA(); // a second end of the same request changes nothing
    expect(requests.inFlight).toBe(1);
    endB();
    expect(requests.inFlight).toBe(0);
    time.move(BUSY_WINDOW_MS - 1);
    expect(requests.delayFor(256 * 1024)).toBe(31.25);
    time.move(1);
    expect(requests.delayFor(256 * 1024)).toBe(0);
  });

  it("never paces when the rate is 0 (HERALD_ASSET_PACED_BYTES_PER_SECOND=0)", () => {
    const requests = new RequestsInFlight(0);
    requests.begin();
    expect(requests.delayFor(256 * 1024)).toBe(0);
  });
});

describe("givingWay", () => {
  afterEach(() => vi.useRealTimers());

  it("holds a download's chunk for its paced time while another request is in flight, and passes chunks at once when none is", async () => {
    vi.useFakeTimers();
    const requests = new RequestsInFlight(1024, () => 0);
    const end = requests.begin();
    const file = new PassThrough();
    const body = file.pipe(givingWay(requests));
    const received: string[] = [];
    body.on("data", (chunk: Buffer) => received.push(chunk.toString()));
    file.write(Buffer.alloc(512, "a")); // half a second at 1 KiB/s
    await vi.advanceTimersByTimeAsync(499);
    expect(received).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(received).toHaveLength(1);
    end();
    vi.useRealTimers();
    const idle = new RequestsInFlight(1024, () => 1e9);
    const direct = new PassThrough();
    const passed = direct.pipe(givingWay(idle));
    const chunks: Buffer[] = [];
    passed.on("data", (chunk: Buffer) => chunks.push(chunk));
    direct.end(Buffer.alloc(512, "b"));
    await once(passed, "end");
    expect(Buffer.concat(chunks).length).toBe(512);
  });
});

describe("useRequestsInFlight", () => {
  it("counts a GraphQL request until its response is sent, and neither a download nor a stream", async () => {
    const requests = new RequestsInFlight(8 * 1024 * 1024);
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    let started!: () => void;
    const resolving = new Promise<void>((resolve) => (started = resolve));
    const yoga = createYoga({
      schema: createSchema({
        typeDefs: "type Query { slow: Boolean } type Subscription { tick: Boolean }",
        resolvers: {
          Query: { slow: async () => (started(), await answered, true) },
          Subscription: {
            tick: {
              subscribe: async function* () {
                yield { tick: true };
                await answered;
              },
            },
          },
        },
      }),
      plugins: [useRequestsInFlight(requests, /^\/assets\//)],
      logging: false,
    });
    const server = createServer(yoga);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const query = fetch(`${base}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ slow }" }) });
      await resolving;
      expect(requests.inFlight).toBe(1);

      const stream = await fetch(`${base}/graphql?query=${encodeURIComponent("subscription { tick }")}`, { headers: { accept: "text/event-stream" } });
      const reader = stream.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain("tick");
      expect((await fetch(`${base}/assets/some-id`)).status).toBe(404);
      expect(requests.inFlight).toBe(1);

      answer();
      expect(await (await query).json()).toEqual({ data: { slow: true } });
      await reader.cancel();
      await eventually(async () => requests.inFlight === 0, 5_000, "the query's response to be sent");
    } finally {
      server.close();
    }
  });
});
