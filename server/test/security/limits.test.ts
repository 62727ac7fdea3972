// Per-credential limits over real HTTP: a cap on open streams, a request rate (per credential, per
// client address without one, shared by instances through Redis), and DELIVERED written once per
// event per instance however many streams a person holds.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { type Served, type TwoInstances, twoInstances } from "../support/processes.ts";
import { providers, redisUrl, type TestDatabase } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";
import { eventually, subscribe } from "../support/sse.ts";

const MAX_STREAMS = 3;
const RATE_POINTS = 40;

/** Opens a distinct-connections stream by hand, so the HTTP status of a refusal is visible. */
async function openStream(graphqlUrl: string, token: string) {
  const controller = new AbortController();
  const response = await fetch(graphqlUrl.replace(/graphql$/, "graphql/stream"), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: "subscription { notificationEvents { cursor } }" }),
    signal: controller.signal,
  });
  if (response.ok) await response.body!.getReader().read(); // open once its first comment arrives
  return { response, close: () => controller.abort() };
}

const viewer = (url: string, token: string | null) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: "{ viewer { id } }" }),
  });

for (const provider of providers) {
  const transport = provider.name === "postgresql" && redisUrl ? " + Redis" : "";
  describe.skipIf(!provider.available)(`per-credential limits on ${provider.name}${transport}`, () => {
    let h: TestHerald;

    beforeAll(async () => {
      const redis = provider.name === "postgresql" && redisUrl ? { redisUrl } : {};
      h = await startHerald(provider, { maxStreamsPerCredential: MAX_STREAMS, rateLimitPoints: RATE_POINTS, rateLimitWindowSeconds: 60, ...redis });
    });
    afterAll(async () => h?.close());

    it(`refuses stream ${MAX_STREAMS + 1} of one credential with 429 TOO_MANY_STREAMS, in both modes`, async () => {
      const ada = await h.newPerson("Ada");
      const bob = await h.newPerson("Bob");
      const open = [];
      for (let i = 0; i < MAX_STREAMS; i++) {
        const stream = await openStream(h.url, ada.token);
        expect(stream.response.status).toBe(200);
        open.push(stream);
      }
      await eventually(() => h.herald.feed.listenersOf(ada.id) === MAX_STREAMS, 5_000, "the streams to attach");
      const refused = await openStream(h.url, ada.token);
      expect(refused.response.status).toBe(429);
      expect((await refused.response.json()).errors[0].extensions.code).toBe("TOO_MANY_STREAMS");
      const single = subscribe(h.url, ada.token, { singleConnection: true });
      await eventually(() => single.errors.length > 0 || single.completed, 5_000, "the single-connection stream to be refused");
      single.dispose();
      expect(h.herald.feed.listenersOf(ada.id)).toBe(MAX_STREAMS);

      // Another credential is not affected, and a closed stream frees its place.
      const bobs = await openStream(h.url, bob.token);
      expect(bobs.response.status).toBe(200);
      bobs.close();
      open.pop()!.close();
      await eventually(() => h.herald.feed.listenersOf(ada.id) === MAX_STREAMS - 1, 5_000, "the closed stream to be released");
      const again = await openStream(h.url, ada.token);
      expect(again.response.status).toBe(200);
      for (const s of [...open, again]) s.close();
    });

    it("writes DELIVERED once per event however many streams the person holds", async () => {
      const ada = await h.newPerson("Ada");
      // A single connection counts as a stream besides its subscription: one of each mode fills the cap.
      const streams = Array.from({ length: MAX_STREAMS - 1 }, (_, i) => subscribe(h.url, ada.token, { singleConnection: i % 2 === 1 }));
      await eventually(() => h.herald.feed.listenersOf(ada.id) === streams.length, 10_000, "the streams to attach");
      const marks = vi.spyOn(h.herald.services.notifications, "markDelivered");
      try {
        const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "once", title: "once" });
        for (const s of streams) await s.waitUntil((events) => events.some((e) => e.type === "DELIVERED" && e.notification.id === n.id));
        expect(marks).toHaveBeenCalledTimes(1);
        expect(await storeOf(h.herald.database).count("NotificationEvent", (q) => q.where("notificationId", "=", n.id).where("type", "=", "DELIVERED"))).toBe(
          1,
        );
      } finally {
        marks.mockRestore();
        for (const s of streams) s.dispose();
      }
    });

    it(`answers a burst past ${RATE_POINTS} requests with 429, RATE_LIMITED and Retry-After, per credential and per address`, async () => {
      const ada = await h.newPerson("Ada");
      const bob = await h.newPerson("Bob");
      const burst = await Promise.all(Array.from({ length: RATE_POINTS + 10 }, () => viewer(h.url, ada.token)));
      const statuses = burst.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_POINTS);
      expect(statuses.filter((s) => s === 429)).toHaveLength(10);
      const limited = burst.find((r) => r.status === 429)!;
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
      expect((await limited.json()).errors[0]).toMatchObject({ extensions: { code: "RATE_LIMITED" } });
      // Bob's credential has its own count.
      expect((await viewer(h.url, bob.token)).status).toBe(200);
      // Without a credential the client address is counted (loopback here: all anonymous requests share it).
      const anonymous = await Promise.all(Array.from({ length: RATE_POINTS + 5 }, () => viewer(h.url, null)));
      expect(anonymous.filter((r) => r.status === 429)).toHaveLength(5);
    });
  });
}

const postgres = providers.find((p) => p.name === "postgresql")!;
describe.skipIf(!postgres.available || !redisUrl)("the rate limit across two instances on PostgreSQL + Redis", () => {
  let db: TestDatabase;
  let two: TwoInstances;
  let a: Served;
  let b: Served;
  let key: string;
  beforeAll(async () => {
    db = await postgres.createDatabase();
    two = await twoInstances(db, redisUrl!, { HERALD_RATE_LIMIT_POINTS: String(RATE_POINTS) });
    ({ a, b, key } = two);
  });
  afterAll(async () => {
    await two?.close();
    await db?.drop();
  });

  it("counts one credential's requests on both instances together", async () => {
    const half = RATE_POINTS / 2 + 5;
    const call = (url: string) => gql(url, key, "{ __typename }");
    const onA = await Promise.all(Array.from({ length: half }, () => call(a.url)));
    const onB = await Promise.all(Array.from({ length: half }, () => call(b.url)));
    // Each instance alone allows RATE_POINTS; together they allowed exactly RATE_POINTS.
    expect(onA.every((r) => r.status === 200)).toBe(true);
    expect([...onA, ...onB].filter((r) => r.status === 200)).toHaveLength(RATE_POINTS);
    expect(onB.filter((r) => r.status === 429).map((r) => r.errors?.[0]?.extensions?.code)).toEqual(Array(2 * half - RATE_POINTS).fill("RATE_LIMITED"));
  });
});
