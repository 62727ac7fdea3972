// /metrics after real traffic: GraphQL request and resolver timings and every herald_ metric,
// scraped as Prometheus would, with the bearer token it requires.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { eventually, subscribe } from "../support/sse.ts";
import { sample } from "../support/prometheus.ts";

const metricsToken = "scrape-token-0123456789";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`/metrics on ${provider.name}`, () => {
    let h: TestHerald;
    let base: string;
    beforeAll(async () => {
      h = await startHerald(provider, { metricsToken, maxBufferedBytes: 1024, heartbeatMs: 60_000 });
      base = h.url.replace(/\/graphql$/, "");
    });
    afterAll(async () => h?.close());

    const scrape = async () => {
      const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/plain");
      return response.text();
    };

    it("refuses a scrape without the token or with a wrong one", async () => {
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const wrong = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}x` } });
      expect(wrong.status).toBe(401);
      expect(await wrong.text()).not.toContain("herald_");
    });

    it("counts publishes per plugin, event lag, open streams and requests", async () => {
      const ada = await h.newPerson("Ada");
      const sub = subscribe(h.url, ada.token);
      await h.attached(ada.id);
      for (let i = 0; i < 3; i++) await h.publish({ scope: "PERSON", personId: ada.id, key: `ci-${i}`, title: `build ${i}`, source: { plugin: "ci" } });
      await h.publish({ scope: "PERSON", personId: ada.id, key: "deploy", title: "deployed", source: { plugin: "deployer" } });
      await sub.waitUntil((events) => events.filter((e) => e.type === "CREATED").length === 4);

      const text = await scrape();
      expect(sample(text, "herald_publishes_total", { plugin: "ci" })).toBe(3);
      expect(sample(text, "herald_publishes_total", { plugin: "deployer" })).toBe(1);
      expect(sample(text, "herald_open_streams")).toBe(1);
      // Each publish commits CREATED (and the open stream adds a DELIVERED): at least 4 fanned out.
      expect(sample(text, "herald_event_lag_seconds_count")).toBeGreaterThanOrEqual(4);
      expect(sample(text, "herald_event_lag_seconds_bucket", { le: "+Inf" })).toBe(sample(text, "herald_event_lag_seconds_count"));
      expect(sample(text, "graphql_yoga_http_duration_count", { method: "POST", statusCode: "200", operationType: "mutation" })).toBeGreaterThanOrEqual(4);
      expect(sample(text, "graphql_envelop_phase_execute_count", { operationType: "mutation" })).toBeGreaterThanOrEqual(4);
      expect(
        sample(text, "graphql_envelop_execute_resolver_count", { operationType: "mutation", fieldName: "publishNotification", typeName: "Mutation" }),
      ).toBe(4);
      expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);

      sub.dispose();
      await eventually(() => h.herald.feed.listenerCount === 0);
      expect(sample(await scrape(), "herald_open_streams")).toBe(0);
    });

    it("times the root fields of queries and mutations, each server in the process its own, and no nested field", async () => {
      const eve = await h.newPerson("Eve");
      const other = await startHerald(provider, { metricsToken });
      try {
        const list = `{ notifications(first: 5) { edges { node { id title display { title } } } } }`;
        for (let i = 0; i < 2; i++) expect((await gql(h.url, eve.token, list)).errors).toBeUndefined();
        const carol = await other.newPerson("Carol");
        expect((await gql(other.url, carol.token, list)).errors).toBeUndefined();
        const text = await scrape();
        const otherText = await (await fetch(other.url.replace(/\/graphql$/, "/metrics"), { headers: { authorization: `Bearer ${metricsToken}` } })).text();
        const notifications = { operationType: "query", fieldName: "notifications", typeName: "Query", returnType: "NotificationConnection!" };
        expect(sample(text, "graphql_envelop_execute_resolver_count", notifications)).toBe(2);
        expect(sample(otherText, "graphql_envelop_execute_resolver_count", notifications)).toBe(1);
        expect(sample(text, "graphql_envelop_execute_resolver_bucket", { ...notifications, le: "+Inf" })).toBe(2);
        const timedTypes = new Set([...text.matchAll(/^graphql_envelop_execute_resolver_count\{[^}]*typeName="(\w+)"/gm)].map((m) => m[1]));
        expect([...timedTypes].sort()).toEqual(["Mutation", "Query"]);
      } finally {
        await other.close();
      }
    });

    it("shows a person whose stream holds notifications for quiet mode, until it is turned off", async () => {
      const bob = await h.newPerson("Bob");
      await gql(h.url, bob.token, `mutation { setQuietMode(enabled: true) { quietMode } }`);
      const sub = subscribe(h.url, bob.token);
      await h.attached(bob.id);
      expect(sample(await scrape(), "herald_held_persons")).toBe(0);
      await h.publish({ scope: "PERSON", personId: bob.id, key: "quiet-1", title: "held" });
      await eventuallyMetric(scrape, "herald_held_persons", 1);
      await gql(h.url, bob.token, `mutation { setQuietMode(enabled: false) { quietMode } }`);
      await sub.waitUntil((events) => events.some((e) => e.type === "CREATED"));
      await eventuallyMetric(scrape, "herald_held_persons", 0);
      sub.dispose();
    });

    it("counts a stream closed because its client stopped reading", { timeout: 120_000 }, async () => {
      const cy = await h.newPerson("Cy");
      const socket = connect(Number(new URL(base).port), "127.0.0.1");
      await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
      const body = JSON.stringify({ query: "subscription { notificationEvents { cursor notification { body display { body } } } }" });
      socket.write(
        `POST /graphql/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n` +
          `Authorization: Bearer ${cy.token}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await h.attached(cy.id);
      socket.pause(); // never read again
      const big = "x".repeat(9_000);
      for (let i = 0; i < 3_000 && h.herald.feed.listenersOf(cy.id) > 0; i++) {
        await h.herald.services.notifications.publish({
          scope: "PERSON",
          personId: cy.id,
          key: `big-${i}`,
          title: "big",
          body: big,
          display: { body: big },
          source: { plugin: "bulk" },
        });
      }
      expect(h.herald.feed.listenersOf(cy.id)).toBe(0);
      expect(sample(await scrape(), "herald_slow_consumer_closes_total", { reason: "bytes" })).toBe(1);
      socket.destroy();
    });
  });

  describe.skipIf(!provider.available)(`/metrics on ${provider.name}, a stream falling behind on live events`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider, { metricsToken, maxQueuedEvents: 10 });
    });
    afterAll(async () => h?.close());

    it("counts the stream closed when more live events wait for it than its queue holds", async () => {
      const dee = await h.newPerson("Dee");
      // The stream as the transport drives it, except that nobody asks for the next event.
      const events = h.herald.services.realtime.notificationEvents({ kind: "person", personId: dee.id, credentialId: "metrics-test" }, null);
      const stream = events[Symbol.asyncIterator]();
      const first = stream.next();
      await h.attached(dee.id);
      for (let i = 0; i < 12; i++)
        await h.herald.services.notifications.publish({ scope: "PERSON", personId: dee.id, key: `q-${i}`, title: "q", source: { plugin: "bulk" } });
      expect((await first).done).toBe(false);
      await expect(stream.next()).rejects.toThrow(/fell too far behind/);
      const text = await (await fetch(h.url.replace(/\/graphql$/, "/metrics"), { headers: { authorization: `Bearer ${metricsToken}` } })).text();
      expect(sample(text, "herald_slow_consumer_closes_total", { reason: "queue" })).toBe(1);
    });
  });
}

describe("/metrics without a configured token", () => {
  let h: TestHerald;
  beforeAll(async () => {
    h = await startHerald(providers[0]!);
  });
  afterAll(async () => h?.close());

  it("is not served at all", async () => {
    const response = await fetch(h.url.replace(/\/graphql$/, "/metrics"), { headers: { authorization: "Bearer anything-at-all-here" } });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("herald_");
  });
});

async function eventuallyMetric(scrape: () => Promise<string>, name: string, value: number) {
  let last = Number.NaN;
  await eventually(async () => (last = sample(await scrape(), name)) === value, 10_000, `${name} to be ${value}`).catch((error: Error) => {
    throw new Error(`${error.message} (last ${last})`);
  });
}
