// /health and /ready as a load balancer probes them, with a private Redis the test takes away
// and brings back; and request ids in responses and in the logs of the request.
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { freePort, startRedis, stop } from "../support/processes.ts";
import { providers } from "../support/providers.ts";
import { eventually } from "../support/sse.ts";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`/health and /ready on ${provider.name} with Redis`, () => {
    let h: TestHerald;
    let base: string;
    let redisPort: number;
    let redis: Awaited<ReturnType<typeof startRedis>>;
    beforeAll(async () => {
      redisPort = await freePort();
      redis = await startRedis(redisPort);
      h = await startHerald(provider, { redisUrl: `redis://127.0.0.1:${redisPort}` });
      base = h.url.replace(/\/graphql$/, "");
    });
    afterAll(async () => {
      await h?.close();
      if (redis) await stop(redis);
    });

    const ready = async () => {
      const response = await fetch(`${base}/ready`);
      return { status: response.status, body: (await response.json()) as { status: string; checks: Record<string, string> } };
    };

    it("answers /health while the process serves", async () => {
      expect((await fetch(`${base}/health`)).status).toBe(200);
    });

    it("is ready with the store and Redis answering, 503 naming Redis while it is away, ready again after", async () => {
      expect(await ready()).toEqual({ status: 200, body: { status: "ready", checks: { database: "ok", redis: "ok" } } });

      await stop(redis, "SIGKILL");
      const down = await ready();
      expect(down).toEqual({ status: 503, body: { status: "unavailable", checks: { database: "ok", redis: "failed" } } });
      // Alive is not ready: the process still answers /health.
      expect((await fetch(`${base}/health`)).status).toBe(200);

      redis = await startRedis(redisPort);
      await eventually(async () => (await ready()).status === 200, 15_000, "ready after Redis came back");
    });
  });
}

describe("request ids", () => {
  const lines: Record<string, unknown>[] = [];
  let h: TestHerald;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    h = await startHerald(providers[0]!, {}, { logger: pino({ level: "debug" }, sink) });
  });
  afterAll(async () => h?.close());

  const query = (headers: Record<string, string>) =>
    fetch(h.url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query: "{ __typename }" }) });

  it("keeps a proxy's request id, tags the request's access line with it, and keeps Yoga's log arguments structured", async () => {
    const response = await query({ "x-request-id": "edge-4f2a.1" });
    expect(response.headers.get("x-request-id")).toBe("edge-4f2a.1");
    await eventually(() => lines.some((l) => l.requestId === "edge-4f2a.1" && l.msg === "request"), 5_000, "the access line");
    const tagged = lines.filter((l) => l.requestId === "edge-4f2a.1");
    expect(tagged.find((l) => l.msg === "request")).toMatchObject({ method: "POST", path: "/graphql", status: 200 });
    // Yoga's own debug lines know no request (decisions.md, "Request ids and traces"); their
    // extra arguments are fields, not text.
    const yogaLines = lines.filter((l) => typeof l.msg === "string" && l.msg.startsWith("Processing GraphQL Parameters"));
    expect(yogaLines.length).toBeGreaterThan(0);
    for (const line of yogaLines) expect(String(line.msg)).not.toContain("[object Object]");
  });

  it("gives a request without an acceptable id a new one", async () => {
    const generated = (await query({})).headers.get("x-request-id");
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const forged = (await query({ "x-request-id": "line\\nbreak {json}" })).headers.get("x-request-id");
    expect(forged).toMatch(/^[0-9a-f-]{36}$/);
    await eventually(() => lines.some((l) => l.requestId === generated), 5_000, "a line with the generated id");
  });
});
