// What one live subscriber holds in herald serve: the V8 heap before and after N distinct-connection
// subscribers (POST /graphql/stream, as bench:fanout subscribes) and a few delivered events, from
// /metrics, and with --snapshots the live objects per subscriber by type, from two heap snapshots
// taken by the server itself (node's --heapsnapshot-signal; each snapshot collects garbage first).
// RSS per subscriber (bench:fanout) also counts garbage not yet collected and the heap's growth; this
// says what a subscriber keeps. Usage: npm run bench:memory -- [--subscribers 1000] [--snapshots DIR]
import { readdirSync, readFileSync, mkdirSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { parseArgs } from "node:util";
import { createTempSqlite, spawnHerald } from "@herald/testkit";
import { benchCli, liftedLimits } from "../herald-process.ts";
import { heraldSubscription } from "./herald-server.ts";
import { snapshotTypes } from "./heap-snapshot.ts";

const { values } = parseArgs({
  options: { subscribers: { type: "string", default: "1000" }, snapshots: { type: "string" }, events: { type: "string", default: "20" } },
});
const subscribers = Number(values.subscribers);
const events = Number(values.events);
const snapshotDir = values.snapshots;
const metricsToken = "memory-bench-metrics-token";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const store = createTempSqlite("herald-memory-");
const cli = benchCli(store.url);
const personToken = (await cli.createPerson("Memory subscriber")).token;
const producerKey = await cli.createProducerKey("memory-bench");
if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });
const herald = await spawnHerald({
  env: { DATABASE_URL: store.url, ...liftedLimits, HERALD_METRICS_TOKEN: metricsToken },
  nodeArgs: [
    ...(snapshotDir ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${snapshotDir}`] : []),
    ...(process.env.MEMORY_HERALD_NODE_ARGS ?? "").split(" ").filter(Boolean),
  ],
  onOutput: (text, stream) => stream === "stdout" && process.env.MEMORY_HERALD_STDOUT && process.stdout.write(text),
});
const url = new URL(herald.url);
const pid = herald.process.pid!;

let seq = 0;
async function publish() {
  const input = { scope: "APPLICATION", key: `memory-${++seq}`, title: `event ${seq}`, source: { plugin: "memory-bench" } };
  const body = JSON.stringify({
    query: "mutation P($input: PublishNotificationInput!) { publishNotification(input: $input) { __typename } }",
    variables: { input },
  });
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${producerKey}` }, body });
  if (!response.ok) throw new Error(`publish failed: HTTP ${response.status}`);
  await response.text();
}

/** Heap spaces (used and committed) and RSS, MiB. */
async function memory() {
  const text = await (await fetch(new URL("/metrics", url), { headers: { authorization: `Bearer ${metricsToken}` } })).text();
  const space = (metric: string) =>
    [...text.matchAll(new RegExp(`${metric}\\{space="(\\w+)"\\} (\\d+)`, "g"))].reduce((sum, m) => sum + Number(m[2]), 0) / 1048576;
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
  return { used: space("nodejs_heap_space_size_used_bytes"), committed: space("nodejs_heap_space_size_total_bytes"), rss };
}

async function snapshot(): Promise<string> {
  const before = new Set(readdirSync(snapshotDir!));
  process.kill(pid, "SIGUSR2");
  for (let size = -1; ; await sleep(1000)) {
    const file = readdirSync(snapshotDir!).find((name) => !before.has(name));
    if (!file) continue;
    const now = readFileSync(`${snapshotDir}/${file}`).length;
    if (now === size) return `${snapshotDir}/${file}`;
    size = now;
  }
}

for (let i = 0; i < 5; i++) await publish();
await sleep(500);
const idle = await memory();
const first = snapshotDir ? await snapshot() : null;

const body = JSON.stringify({ query: heraldSubscription });
const request =
  `POST ${url.pathname}/stream HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n` +
  `Authorization: Bearer ${personToken}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const sockets: Socket[] = [];
let received = 0;
for (let i = 0; i < subscribers; i++) {
  const socket = connect(Number(url.port), url.hostname);
  socket.on("data", (chunk: Buffer) => (received += chunk.toString().split("event: next").length - 1));
  socket.write(request);
  sockets.push(socket);
  if (i % 50 === 49) await sleep(20);
}
await sleep(2000);
const open = await memory();
for (let i = 0; i < events; i++) await publish();
await sleep(2000);
const connected = await memory();
const second = snapshotDir ? await snapshot() : null;

const perSubscriber = (before: number, after: number) => (((after - before) * 1024) / subscribers).toFixed(1);
console.log(`${subscribers} subscribers, ${received} of ${subscribers * events} deliveries received`);
console.log(
  `heap used: ${idle.used.toFixed(1)} -> ${open.used.toFixed(1)} connected -> ${connected.used.toFixed(1)} MiB after ${events} events; ${perSubscriber(idle.used, open.used)} -> ${perSubscriber(idle.used, connected.used)} KiB per subscriber (garbage included)`,
);
console.log(
  `heap committed: ${idle.committed.toFixed(1)} -> ${connected.committed.toFixed(1)} MiB, ${perSubscriber(idle.committed, connected.committed)} KiB per subscriber`,
);
console.log(
  `RSS: ${idle.rss.toFixed(1)} -> ${connected.rss.toFixed(1)} MiB, ${perSubscriber(idle.rss, connected.rss)} KiB per subscriber${snapshotDir ? " (the first snapshot's own memory included)" : ""}`,
);
for (const socket of sockets) socket.destroy();
await herald.stop();
store.remove();

if (first && second) {
  const [before, after] = [snapshotTypes(first), snapshotTypes(second)];
  console.log(
    `live heap after collection: ${(before.total / 1048576).toFixed(1)} -> ${(after.total / 1048576).toFixed(1)} MiB, ${((after.total - before.total) / 1024 / subscribers).toFixed(2)} KiB per subscriber (compiled code included)`,
  );
  const rows = [...after.types].map(([type, { bytes, count }]) => {
    const was = before.types.get(type) ?? { bytes: 0, count: 0 };
    return { type, bytes: (bytes - was.bytes) / subscribers, count: (count - was.count) / subscribers };
  });
  rows.sort((a, b) => b.bytes - a.bytes);
  console.log("per subscriber:    bytes   objects  type");
  for (const row of rows.slice(0, 30)) console.log(`${row.bytes.toFixed(0).padStart(22)} ${row.count.toFixed(2).padStart(9)}  ${row.type}`);
}
