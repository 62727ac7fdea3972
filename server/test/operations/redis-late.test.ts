// `herald serve` with a Redis that is not there yet: it starts at once, answers /health, reports
// not-ready on /ready naming Redis, and accepts work; when Redis appears it becomes ready and the
// events committed meanwhile reach a live stream from the event log. The feed's own poll is set
// far beyond the test, so only the catch-up on Redis's arrival can deliver them.
import { freePort, type PrivateRedis, spawnHerald, type SpawnedHerald, startRedis } from "@herald/testkit";
import { createClient } from "graphql-sse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providers, type TestDatabase } from "../support/providers.ts";
import { gql } from "../support/graphql.ts";
import { eventually } from "../support/sse.ts";
import { heraldCli } from "@herald/testkit";
import { sample } from "../support/prometheus.ts";

for (const provider of providers)
  describe.skipIf(!provider.available)(`herald serve while Redis is unreachable, on ${provider.name}`, () => {
    let server: SpawnedHerald | undefined;
    let redis: PrivateRedis | undefined;
    let store: TestDatabase;
    beforeAll(async () => {
      store = await provider.createDatabase();
    });
    afterAll(async () => {
      await server?.stop();
      await redis?.stop();
      await store?.drop();
    });

    const metricsToken = "scrape-token-0123456789";
    const scrape = async () => (await fetch(`${server!.origin}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();

    it("serves /health, is not ready until Redis answers, then replays the events of that window", { timeout: 180_000 }, async () => {
      const port = await freePort(); // nothing listens there yet
      const env = { DATABASE_URL: store.url, REDIS_URL: `redis://127.0.0.1:${port}`, HERALD_FEED_POLL_MS: "600000", HERALD_METRICS_TOKEN: metricsToken };
      const cli = heraldCli({ DATABASE_URL: store.url });
      const producerKey = (await cli.run("key", "create", "--name", "late redis")).lastLine;
      server = await spawnHerald({ env, startTimeoutMs: 60_000 });

      expect((await fetch(`${server.origin}/health`)).status).toBe(200);
      const notReady = await fetch(`${server.origin}/ready`);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toMatchObject({ status: "unavailable", checks: { database: "ok", redis: "failed" } });

      const ada = (await gql(server.url, producerKey, `mutation { createPerson(input: { name: "Ada" }) { id } }`)).data.createPerson;
      const token = (await gql(server.url, producerKey, `mutation($id: ID!) { issuePersonToken(personId: $id) { token } }`, { id: ada.id })).data
        .issuePersonToken.token;
      const received: string[] = [];
      const client = createClient({ url: `${server.url}/stream`, headers: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
      const stop = client.subscribe<{ notificationEvents: { notification: { key: string } } }>(
        // Live only: nothing is replayed from storage on subscribing, so only the catch-up can deliver it.
        { query: `subscription { notificationEvents { type notification { key } } }` },
        { next: (r) => received.push(r.data!.notificationEvents.notification.key), error: () => undefined, complete: () => undefined },
      );
      await eventually(async () => sample(await scrape(), "herald_open_streams") === 1, 30_000, "the live stream to attach");
      // Published while Redis is away: committed, but no bus carries it.
      const published = await gql(
        server.url,
        producerKey,
        `mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { __typename } }`,
        {
          input: { scope: "PERSON", personId: ada.id, key: "while-away", title: "Redis is away", source: { plugin: "tests" } },
        },
      );
      expect(published.data.publishNotification.__typename).toBe("Notification");

      redis = await startRedis(port);
      await eventually(async () => (await fetch(`${server!.origin}/ready`)).status === 200, 60_000, "/ready once Redis answers");
      await eventually(() => received.includes("while-away"), 60_000, "the event of the outage window on the live stream");
      stop();
      client.dispose();
    });
  });
