// Channels off the request path, as ratios within one run (bench/history.md, "Channels"):
// 1. publish throughput with 3 channels per person against the same run without channels;
// 2. 1,000 persons with a Web Push channel each, 30 APPLICATION notifications at 20/s to a local
//    push service (decrypting, VAPID-checking, answering 50 ms late): every delivery arrives;
//    commit-to-receipt p50/p99, deliveries per second per CPU-second, heap and outbox while the
//    receiver is slow.
import { performance } from "node:perf_hooks";
import { createHerald, startServer } from "@herald/server/app";
import { createLogger } from "@herald/server/logger";
import { createSqliteDatabase } from "./databases.ts";
import { NtfyServer, PushService, testTls, WebhookReceiver } from "../server/test/support/channel-receivers.ts";

const silent = createLogger("silent");
const tls = testTls();

async function gql(url: string, token: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }) });
  const body = (await r.json()) as { data?: any; errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

async function server(options: { deliveryConcurrency?: number } = {}) {
  const db = await createSqliteDatabase();
  const herald = await createHerald({ databaseUrl: db.url, logger: silent, tuning: { channelAllowHosts: ["127.0.0.1"], deliveryConcurrency: options.deliveryConcurrency ?? 32 }, channelAgent: tls.agent });
  const running = await startServer(herald, 0, "127.0.0.1");
  const url = `${running.url}/graphql`;
  const key = (await herald.services.auth.issueProducerKey("bench")).secret;
  const person = async (name: string) => {
    const id = (await gql(url, key, `mutation($n: String!) { createPerson(input: { name: $n }) { id } }`, { n: name })).createPerson.id as string;
    const token = (await gql(url, key, `mutation($id: ID!) { issuePersonToken(personId: $id) { token } }`, { id })).issuePersonToken.token as string;
    return { id, token };
  };
  const publish = (input: Record<string, unknown>) =>
    gql(url, key, `mutation($i: PublishNotificationInput!) { publishNotification(input: $i) { ... on Notification { id } } }`, { i: { source: { plugin: "bench" }, ...input } });
  return {
    herald,
    url,
    person,
    publish,
    async close() {
      await running.close();
      await herald.close();
      await db.drop();
    },
  };
}

async function publishRate(withChannels: boolean, push: PushService, ntfy: NtfyServer, hooks: WebhookReceiver): Promise<number> {
  const s = await server();
  try {
    const persons: { id: string; token: string }[] = [];
    for (let i = 0; i < 20; i++) persons.push(await s.person(`P${i}`));
    if (withChannels) {
      for (const p of persons) {
        const sub = push.subscribe();
        await gql(s.url, p.token, `mutation($i: AddWebPushChannelInput!) { addWebPushChannel(input: $i) { __typename } }`, { i: { endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth } });
        await gql(s.url, p.token, `mutation($i: AddNtfyChannelInput!) { addNtfyChannel(input: $i) { __typename } }`, { i: { url: `${ntfy.url}/bench-${p.id.slice(-8)}` } });
        await gql(s.url, p.token, `mutation($i: AddWebhookChannelInput!) { addWebhookChannel(input: $i) { __typename } }`, { i: { url: `${hooks.url}/${p.id}` } });
      }
    }
    const total = 1_000;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < total) {
          const i = next++;
          const p = persons[i % persons.length]!;
          await s.publish({ scope: "PERSON", personId: p.id, key: `k${i % 50}`, title: `Build ${i}`, severity: "WARNING" });
        }
      }),
    );
    return total / ((performance.now() - started) / 1000);
  } finally {
    await s.close();
  }
}

async function fanout(push: PushService) {
  const s = await server({ deliveryConcurrency: 64 });
  try {
    const persons = 1_000;
    for (let i = 0; i < persons; i++) {
      const p = await s.person(`F${i}`);
      const sub = push.subscribe();
      await gql(s.url, p.token, `mutation($i: AddWebPushChannelInput!) { addWebPushChannel(input: $i) { __typename } }`, { i: { endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth } });
    }
    push.received.length = 0;
    push.delayMs = 50;
    const committedAt = new Map<string, number>();
    const latencies: number[] = [];
    let got = 0;
    push.onReceived = (r) => {
      got++;
      const at = committedAt.get(r.payload?.notificationId);
      if (at !== undefined) latencies.push(performance.now() - at);
    };
    let heapMax = 0;
    const sampler = setInterval(() => {
      heapMax = Math.max(heapMax, process.memoryUsage().heapUsed);
    }, 100);
    const heapBefore = process.memoryUsage().heapUsed;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < 30; i++) {
      const r = await s.publish({ scope: "APPLICATION", key: `fan-${i}`, title: `Fan-out ${i}` });
      committedAt.set(r.publishNotification.id, performance.now());
      const wait = started + (i + 1) * 50 - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const expected = 30 * persons;
    while (got < expected && performance.now() - started < 600_000) await new Promise((resolve) => setTimeout(resolve, 100));
    const elapsed = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    clearInterval(sampler);
    latencies.sort((a, b) => a - b);
    const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
    return {
      expected,
      received: got,
      unique: new Set(push.received.map((r) => `${r.path}|${r.payload?.notificationId}`)).size,
      problems: push.received.filter((r) => r.problem).length,
      p50: q(0.5),
      p99: q(0.99),
      elapsed,
      perSecond: got / elapsed,
      // The whole process's CPU: server, worker, and the push service decrypting every push.
      perCpuSecond: got / ((cpu.user + cpu.system) / 1e6),
      heapGrowthMiB: (heapMax - heapBefore) / 2 ** 20,
      undelivered: expected - got,
    };
  } finally {
    await s.close();
  }
}

const [push, ntfy, hooks] = await Promise.all([new PushService().start(tls), new NtfyServer().start(tls), new WebhookReceiver().start(tls)]);
hooks.defaultStatus = 200;
// Alternate to spread drift over both: without, with, without, with.
const rates = { without: [] as number[], with: [] as number[] };
for (const withChannels of [false, true, false, true]) rates[withChannels ? "with" : "without"].push(await publishRate(withChannels, push, ntfy, hooks));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`publish/s without channels ${rates.without.map((r) => r.toFixed(0)).join(", ")}; with 3 channels per person ${rates.with.map((r) => r.toFixed(0)).join(", ")}; ratio ${(mean(rates.with) / mean(rates.without)).toFixed(2)}`);
const f = await fanout(push);
console.log(JSON.stringify(f, null, 2));
await Promise.all([push.close(), ntfy.close(), hooks.close()]);
process.exit(0);
