// The channel outbox as a deployment lives it: a delivery acknowledged by publishNotification
// survives kill -9 and is sent after the restart, with the same dedup topic; two instances on one
// PostgreSQL database send each delivery once; and an agent's `herald mcp ask` reaches the
// person's phone, whose action button answers the agent's await_answer.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { createHerald } from "@herald/server/app";
import { createTempDir, eventually, heraldBin, heraldCli, spawnHerald } from "@herald/testkit";
import { PushService, testTls } from "./support/channel-receivers.ts";
import { gql } from "./support/graphql.ts";
import { startHerald } from "./support/herald.ts";
import { providers } from "./support/providers.ts";

const tls = testTls();
const caDir = createTempDir("herald-ca-");
const caFile = join(caDir.path, "ca.pem");
writeFileSync(caFile, tls.cert);
const channelEnv = { HERALD_CHANNEL_ALLOW_HOSTS: "127.0.0.1", NODE_EXTRA_CA_CERTS: caFile, HERALD_DELIVERY_TIMEOUT_MS: "1000", HERALD_DELIVERY_POLL_MS: "100" };

const addPush = async (url: string, token: string, push: PushService) => {
  const sub = push.subscribe();
  const r = await gql(url, token, `mutation($i: AddWebPushChannelInput!) { addWebPushChannel(input: $i) { ... on Channel { id } } }`, {
    i: { endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth },
  });
  expect(r.data.addWebPushChannel.id).toBeTruthy();
  return sub;
};

afterAll(() => caDir.remove());

const sqlite = providers.find((p) => p.name === "sqlite")!;
const postgres = providers.find((p) => p.name === "postgresql")!;

describe("a delivery survives kill -9", () => {
  it("is sent after the restart, with the same Topic, once the dead instance's lease ran out", async () => {
    const db = await sqlite.createDatabase();
    const push = await new PushService().start(tls);
    const cli = heraldCli({ DATABASE_URL: db.url });
    const person = await cli.createPerson("Ada");
    const key = await cli.createProducerKey("tests");
    let served = await spawnHerald({ env: { DATABASE_URL: db.url, ...channelEnv } });
    try {
      const sub = await addPush(served.url, person.token, push);
      // The push service takes the first request and never answers: the server dies mid-send.
      push.script.push("hang");
      const published = await gql(
        served.url,
        key,
        `mutation { publishNotification(input: { scope: PERSON, personId: "${person.id}", key: "k", title: "Survives", source: { plugin: "tests" } }) { ... on Notification { id } } }`,
      );
      const id = published.data.publishNotification.id;
      await push.waitFor(1);
      await served.kill();
      served = await spawnHerald({ env: { DATABASE_URL: db.url, ...channelEnv } });
      await push.waitFor(2);
      const [first, second] = push.received.filter((r) => sub.endpoint.endsWith(r.path));
      expect(second!.problem).toBeNull();
      expect(second!.payload).toMatchObject({ notificationId: id, title: "Survives" });
      expect(second!.headers.topic).toBe(first!.headers.topic);
      await eventually(
        async () =>
          (await gql(served.url, person.token, `query($id: ID!) { notification(id: $id) { deliveries { status attempts } } }`, { id })).data.notification
            .deliveries[0]?.status === "SENT",
        20_000,
        "the delivery to be SENT",
      );
    } finally {
      await served.stop();
      await push.close();
      await db.drop();
    }
  }, 240_000);
});

describe.skipIf(!postgres.available)("two instances on PostgreSQL", () => {
  it("send each delivery once", async () => {
    const push = await new PushService().start(tls);
    // Attempts never time out here: a timed-out attempt that did arrive is sent again (at least once), which is not what this counts.
    const tuning = { channelAllowHosts: ["127.0.0.1"], deliveryConcurrency: 4, deliveryTimeoutMs: 60_000 };
    const h = await startHerald(postgres, tuning, { channelAgent: tls.agent });
    const other = await createHerald({ databaseUrl: h.databaseUrl, logger: pino({ level: "silent" }), migrate: false, tuning, channelAgent: tls.agent });
    try {
      const persons = [await h.newPerson("A"), await h.newPerson("B"), await h.newPerson("C")];
      for (const p of persons) await addPush(h.url, p.token, push);
      let publishing = true;
      // The second instance claims as fast as it can while the first is woken by every publish.
      const racing = (async () => {
        while (publishing || (await other.deliveries.drain()) > 0) await other.deliveries.drain();
      })();
      for (let i = 0; i < 20; i++) await h.publish({ scope: "APPLICATION", key: `race-${i}`, title: `Race ${i}` });
      publishing = false;
      await racing;
      await push.waitFor(60);
      await h.herald.deliveries.drain();
      const sent = push.received.map((r) => `${r.path}|${r.payload?.notificationId}`);
      expect(push.received.every((r) => r.problem === null)).toBe(true);
      expect(sent).toHaveLength(60);
      expect(new Set(sent).size).toBe(60);
    } finally {
      await other.close();
      await h.close();
      await push.close();
    }
  }, 240_000);
});

describe("herald mcp ask, answered from the lock screen", () => {
  it("reaches the push service with choice buttons whose action URL answers await_answer", async () => {
    const db = await sqlite.createDatabase();
    const push = await new PushService().start(tls);
    const cli = heraldCli({ DATABASE_URL: db.url });
    const person = await cli.createPerson("Ada");
    const key = await cli.createProducerKey("agent");
    const served = await spawnHerald({ env: { DATABASE_URL: db.url, ...channelEnv } });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [heraldBin, "mcp"],
      env: { ...getDefaultEnvironment(), HERALD_URL: served.origin, HERALD_PRODUCER_KEY: key, HERALD_PERSON_ID: person.id },
      stderr: "pipe",
    });
    const client = new Client({ name: "herald-test-agent", version: "1.0.0" });
    try {
      await client.connect(transport);
      const sub = await addPush(served.url, person.token, push);
      const call = (name: string, args: Record<string, unknown>) =>
        client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>;
      const text = (r: CallToolResult) => JSON.parse((r.content[0] as { text: string }).text);
      // The call times out at once and hands back a handle; the person answers from the phone.
      const asked = text(await call("ask", { question: "Ship the release now?", choices: ["Yes", "Not yet"], timeoutSeconds: 0 }));
      expect(asked.handle).toBeTruthy();
      await push.waitFor(1);
      const got = push.received.find((r) => sub.endpoint.endsWith(r.path))!;
      expect(got.problem).toBeNull();
      expect(got.payload.title).toBe("Ship the release now?");
      expect(got.payload.actions.map((a: { label: string }) => a.label)).toEqual(["Yes", "Not yet"]);
      const answer = await fetch(got.payload.actions[1].url, { method: "POST" });
      expect(answer.status).toBe(200);
      expect(text(await call("await_answer", { handle: asked.handle, timeoutSeconds: 60 }))).toMatchObject({
        status: "answered",
        choice: { index: 1, label: "Not yet" },
      });
    } finally {
      await client.close();
      await served.stop();
      await push.close();
      await db.drop();
    }
  }, 240_000);
});
