// Channels off the request path, as ratios within one run (bench/history.md, "Channels"):
// 1. publish throughput with 3 channels per person against the same run without channels;
// 2. 1,000 persons with a Web Push channel each, 30 APPLICATION notifications at 20/s to a local
//    push service (decrypting, VAPID-checking, answering 50 ms late): every delivery arrives;
//    commit-to-receipt p50/p99, deliveries per second per CPU-second of the server, heap and
//    outbox while the receiver is slow.
// The receivers run in a process of their own (bench/channel-receivers-process.ts), and the
// server sends through a keep-alive agent as it does in production (app.ts), trusting the
// receivers' throwaway certificate.
// `--persons N` (default 1000) scales the fan-out; `--fanout-only` skips the publish comparison.
import { fork } from "node:child_process";
import { Agent } from "node:https";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { createHerald, startServer } from "@herald/server/app";
import { createLogger } from "@herald/server/logger";
import type { ReceiverEvent, ReceiverRequest } from "./channel-receivers-process.ts";
import { createSqliteDatabase } from "./databases.ts";

const { values: args } = parseArgs({ options: { persons: { type: "string", default: "1000" }, "fanout-only": { type: "boolean", default: false } } });
const silent = createLogger("silent");

/** The receivers' process, and what it reports. */
class Receivers {
  private readonly child = fork(new URL("./channel-receivers-process.ts", import.meta.url), {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  private waiting: ((event: ReceiverEvent) => void)[] = [];
  onPushes: (pushes: [string, number][]) => void = () => undefined;
  problems: string[] = [];
  others = 0;
  urls!: { push: string; ntfy: string; hooks: string };
  agent!: Agent;

  async start(): Promise<this> {
    this.child.on("message", (event: ReceiverEvent) => {
      if (event.op === "received") {
        this.problems.push(...event.problems);
        this.others += event.others;
        this.onPushes(event.pushes);
      } else this.waiting.shift()?.(event);
    });
    const ready = (await this.next()) as Extract<ReceiverEvent, { op: "ready" }>;
    this.urls = { push: ready.push, ntfy: ready.ntfy, hooks: ready.hooks };
    this.agent = new Agent({ ca: ready.cert, keepAlive: true, maxSockets: 64 });
    return this;
  }

  private next(): Promise<ReceiverEvent> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  tell(request: ReceiverRequest): void {
    this.child.send(request);
  }

  async subscribe(count: number) {
    const answer = this.next();
    this.tell({ op: "subscribe", count });
    return ((await answer) as Extract<ReceiverEvent, { op: "subscriptions" }>).subscriptions;
  }

  async close(): Promise<void> {
    const answer = this.next();
    this.tell({ op: "close" });
    await answer;
    this.agent.destroy();
  }
}

async function gql(url: string, token: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await r.json()) as { data?: any; errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

async function server(receivers: Receivers, options: { deliveryConcurrency?: number } = {}) {
  const db = await createSqliteDatabase();
  const herald = await createHerald({
    databaseUrl: db.url,
    logger: silent,
    tuning: { channelAllowHosts: ["127.0.0.1"], deliveryConcurrency: options.deliveryConcurrency ?? 32 },
    channelAgent: receivers.agent,
  });
  const running = await startServer(herald, 0, "127.0.0.1");
  const url = `${running.url}/graphql`;
  const key = (await herald.services.auth.issueProducerKey("bench")).secret;
  const person = async (name: string) => {
    const id = (await gql(url, key, `mutation($n: String!) { createPerson(input: { name: $n }) { id } }`, { n: name })).createPerson.id as string;
    const token = (await gql(url, key, `mutation($id: ID!) { issuePersonToken(personId: $id) { token } }`, { id })).issuePersonToken.token as string;
    return { id, token };
  };
  const publish = (input: Record<string, unknown>) =>
    gql(url, key, `mutation($i: PublishNotificationInput!) { publishNotification(input: $i) { ... on Notification { id } } }`, {
      i: { source: { plugin: "bench" }, ...input },
    });
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

async function publishRate(withChannels: boolean, receivers: Receivers): Promise<number> {
  const s = await server(receivers);
  try {
    const persons: { id: string; token: string }[] = [];
    for (let i = 0; i < 20; i++) persons.push(await s.person(`P${i}`));
    if (withChannels) {
      const subscriptions = await receivers.subscribe(persons.length);
      for (const [i, p] of persons.entries()) {
        const sub = subscriptions[i]!;
        await gql(s.url, p.token, `mutation($i: AddWebPushChannelInput!) { addWebPushChannel(input: $i) { __typename } }`, {
          i: { endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth },
        });
        await gql(s.url, p.token, `mutation($i: AddNtfyChannelInput!) { addNtfyChannel(input: $i) { __typename } }`, {
          i: { url: `${receivers.urls.ntfy}/bench-${p.id.slice(-8)}` },
        });
        const added = await gql(
          s.url,
          p.token,
          `mutation($i: AddWebhookChannelInput!) { addWebhookChannel(input: $i) { ... on WebhookChannelCreated { secret } } }`,
          { i: { url: `${receivers.urls.hooks}/${p.id}` } },
        );
        receivers.tell({ op: "webhook-secret", path: `/${p.id}`, secret: added.addWebhookChannel.secret });
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

async function fanout(receivers: Receivers, persons: number) {
  const s = await server(receivers, { deliveryConcurrency: 64 });
  try {
    const subscriptions = await receivers.subscribe(persons);
    for (let i = 0; i < persons; i++) {
      const p = await s.person(`F${i}`);
      const sub = subscriptions[i]!;
      await gql(s.url, p.token, `mutation($i: AddWebPushChannelInput!) { addWebPushChannel(input: $i) { __typename } }`, {
        i: { endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth },
      });
    }
    receivers.tell({ op: "delay", ms: 50 });
    const committedAt = new Map<string, number>();
    const latencies: number[] = [];
    let got = 0;
    let arrived: () => void = () => undefined;
    const expected = 30 * persons;
    const all = new Promise<void>((resolve) => (arrived = resolve));
    receivers.onPushes = (pushes) => {
      for (const [notificationId, at] of pushes) {
        got++;
        const committed = committedAt.get(notificationId);
        if (committed !== undefined) latencies.push(at - committed);
      }
      if (got >= expected) arrived();
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
      committedAt.set(r.publishNotification.id, performance.timeOrigin + performance.now());
      const wait = started + (i + 1) * 50 - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const cap = new Promise<void>((resolve) => setTimeout(resolve, 600_000).unref());
    await Promise.race([all, cap]);
    const elapsed = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    clearInterval(sampler);
    latencies.sort((a, b) => a - b);
    const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
    return {
      persons,
      expected,
      received: got,
      problems: receivers.problems.length,
      firstProblem: receivers.problems[0] ?? null,
      p50Ms: Math.round(q(0.5)),
      p99Ms: Math.round(q(0.99)),
      elapsedS: Number(elapsed.toFixed(1)),
      perSecond: Number((got / elapsed).toFixed(1)),
      // The server's process only: request handling, the delivery worker and its store (the
      // receivers decrypt in their own process).
      perServerCpuSecond: Number((got / ((cpu.user + cpu.system) / 1e6)).toFixed(1)),
      heapGrowthMiB: Number(((heapMax - heapBefore) / 2 ** 20).toFixed(1)),
      undelivered: expected - got,
    };
  } finally {
    await s.close();
  }
}

const receivers = await new Receivers().start();
if (!args["fanout-only"]) {
  // Alternate to spread drift over both: without, with, without, with.
  const rates = { without: [] as number[], with: [] as number[] };
  for (const withChannels of [false, true, false, true]) rates[withChannels ? "with" : "without"].push(await publishRate(withChannels, receivers));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `publish/s without channels ${rates.without.map((r) => r.toFixed(0)).join(", ")}; with 3 channels per person ${rates.with.map((r) => r.toFixed(0)).join(", ")}; ratio ${(mean(rates.with) / mean(rates.without)).toFixed(2)}; receiver problems ${receivers.problems.length}`,
  );
}
const f = await fanout(receivers, Number(args.persons));
console.log(JSON.stringify(f, null, 2));
await receivers.close();
process.exit(0);
