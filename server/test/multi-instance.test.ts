// Several Herald processes on one PostgreSQL and one Redis: a subscriber on one instance hears
// what is published on another, and loses nothing when Redis or its own server goes away.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "./support/graphql.ts";
import { freePort, heraldCommand, type Served, serve, startRedis, stop } from "./support/processes.ts";
import { providers, type TestDatabase } from "./support/providers.ts";
import { eventually, headCursor, subscribe } from "./support/sse.ts";

const postgres = providers.find((p) => p.name === "postgresql")!;
const redisAvailable = (() => {
  try {
    execFileSync("redis-server", ["--version"]);
    return true;
  } catch {
    if (process.env.CI === "true") throw new Error("redis-server is required in CI");
    console.warn("[herald tests] skipping multi-instance tests: redis-server is not installed");
    return false;
  }
})();

describe.skipIf(!postgres.available || !redisAvailable)("several instances on PostgreSQL and Redis", () => {
  let db: TestDatabase;
  let redisPort: number;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let a: Served;
  let b: Served;
  let key: string;
  let ada: { id: string; token: string };
  const env = () => ({ DATABASE_URL: db.url, REDIS_URL: `redis://127.0.0.1:${redisPort}`, NODE_ENV: "production", HERALD_FEED_POLL_MS: "300" });

  beforeAll(async () => {
    db = await postgres.createDatabase();
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    key = (await heraldCommand(["key", "create", "--name", "multi"], { DATABASE_URL: db.url })).lastLine;
    const person = await heraldCommand(["person", "create", "--name", "Ada"], { DATABASE_URL: db.url });
    ada = { id: person.stdout.split("\n")[0]!.replace("person ", "").trim(), token: person.lastLine };
    [a, b] = await Promise.all([serve(env()), serve(env())]);
  });
  afterAll(async () => {
    await Promise.all([a && stop(a), b && stop(b), redis && stop(redis)]);
    await db?.drop();
  });

  const publish = (server: Served, k: string, title: string) =>
    gql(
      server.url,
      key,
      `mutation($p: ID!, $k: String!, $t: String!) { publishNotification(input: { scope: PERSON, personId: $p, key: $k, title: $t, source: { plugin: "multi" } }) { __typename } }`,
      {
        p: ada.id,
        k,
        t: title,
      },
    );
  const created = (titles: string[]) => titles.map((t) => `CREATED:${t}`);
  const createdOf = (events: { type: string; notification: { title: string } }[]) =>
    events.filter((e) => e.type === "CREATED").map((e) => `CREATED:${e.notification.title}`);
  // Another process's stream cannot be watched attaching, so each subscription starts after the
  // person's head cursor: what is published from then on is replayed if it beats the attach.
  const subscribeFromNow = async (server: Served, options: { singleConnection?: boolean } = {}) =>
    subscribe(server.url, ada.token, { ...options, after: await headCursor(server.url, ada.token) });

  it("delivers on instance B what was published on instance A, in order", async () => {
    const sub = await subscribeFromNow(b, { singleConnection: true });
    const titles = Array.from({ length: 10 }, (_, i) => `cross ${i}`);
    for (const [i, t] of titles.entries()) await publish(i % 2 === 0 ? a : b, `cross-${i}`, t);
    // A last one is the marker: a duplicate or a stray would arrive before it.
    await publish(a, "cross-marker", "marker");
    await sub.waitUntil((events) => createdOf(events).includes("CREATED:marker"));
    sub.dispose();
    expect(createdOf(sub.events)).toEqual(created([...titles, "marker"]));
  });

  it("loses nothing while Redis is away and after it comes back", async () => {
    const sub = await subscribeFromNow(b);
    await publish(a, "outage-0", "before outage");
    await sub.waitFor(1);
    await stop(redis, "SIGKILL");
    const during = ["during outage 1", "during outage 2", "during outage 3"];
    for (const [i, t] of during.entries()) {
      const r = await publish(a, `outage-${i + 1}`, t);
      expect(r.data.publishNotification.__typename).toBe("Notification");
    }
    redis = await startRedis(redisPort);
    // Both instances say when they reach Redis again.
    await eventually(
      async () => (await Promise.all([a, b].map((s) => fetch(new URL("/ready", s.url))))).every((r) => r.ok),
      20_000,
      "both instances ready again",
    );
    await publish(a, "outage-9", "after outage");
    const expected = created(["before outage", ...during, "after outage"]);
    await sub.waitUntil((events) => createdOf(events).length >= expected.length, 20_000).catch(() => undefined);
    sub.dispose();
    expect(createdOf(sub.events)).toEqual(expected);
  });

  it("resumes from the last cursor on a restarted instance", async () => {
    let sub = await subscribeFromNow(b);
    await publish(a, "restart-0", "before restart");
    // (A delivery mark from the previous test may come first: the cursor kept is this CREATED's.)
    const isBefore = (e: { type: string; notification: { title: string } }) => e.type === "CREATED" && e.notification.title === "before restart";
    const last = (await sub.waitUntil((events) => events.some(isBefore))).find(isBefore);
    sub.dispose();
    await stop(b);
    const missed = ["while B was down 1", "while B was down 2"];
    for (const [i, t] of missed.entries()) await publish(a, `restart-${i + 1}`, t);
    b = await serve(env());
    sub = subscribe(b.url, ada.token, { after: last!.cursor });
    await sub.waitUntil((events) => createdOf(events).length >= missed.length);
    await publish(a, "restart-marker", "marker after restart");
    await sub.waitUntil((events) => createdOf(events).includes("CREATED:marker after restart"));
    sub.dispose();
    expect(createdOf(sub.events)).toEqual(created([...missed, "marker after restart"]));
    expect(sub.events.some((e) => e.notification.title === "before restart" && e.type === "CREATED")).toBe(false);
  });
});
