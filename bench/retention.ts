// `npm run bench:retention [-- --small]` (--small: a tenth of each workload): what the server keeps
// and how long it takes over the hostile or wasteful workloads the security and stream suites run,
// measured here rather than asserted there (a heap or a stopwatch threshold in a test failed on a
// loaded machine and passed a leak on a quiet one). In-process, like those suites: one Herald on a
// fresh SQLite store and its clients share this process's heap, which is read after collecting
// garbage. Each figure is printed as a ratio to a baseline measured in the same run:
//   heap    settled heap after the workload / settled heap before it (after a warm-up);
//   time    the workload's wall time / the same number of plain `{ __typename }` requests, or a
//           query answered during the workload / the same query answered idle.
// The suites keep the functional checks (refusals, no 500, listeners and gauges back to zero).
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { performance } from "node:perf_hooks";
import { buildSchema } from "graphql";
import { createHerald, startServer } from "@herald/server/app";
import { createLogger } from "@herald/server/logger";
import { createSqliteDatabase } from "./databases.ts";
import { fuzzCases } from "./fuzz-load.ts";
import { settledHeap } from "./settled-heap.ts";

const small = process.argv.includes("--small");
const scale = (n: number) => Math.max(1, Math.round(small ? n / 10 : n));
const MiB = 1024 * 1024;
const log = (line: string) => console.log(`[retention bench] ${line}`);

const database = await createSqliteDatabase();
const herald = await createHerald({
  databaseUrl: database.url,
  logger: createLogger("silent"),
  // As the suites had it: one token opens hundreds of streams at once and knocks thousands of times.
  tuning: { maxBufferedBytes: 64 * 1024, heartbeatMs: 60_000, maxStreamsPerCredential: 1_000, rateLimitPoints: 1_000_000 },
});
const server = await startServer(herald, 0, "127.0.0.1");
const url = `${server.url}/graphql`;
const streamUrl = `${url}/stream`;
const producerKey = (await herald.services.auth.issueProducerKey("retention-bench")).secret;

async function gql(token: string | null, query: string, variables: Record<string, unknown> = {}): Promise<{ data?: any; errors?: unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: any };
}

const person = (await gql(producerKey, `mutation { createPerson(input: { name: "Ada" }) { id } }`)).data.createPerson.id as string;
const personToken = (await gql(producerKey, `mutation($id: ID!) { issuePersonToken(personId: $id) { token } }`, { id: person })).data.issuePersonToken
  .token as string;
await herald.services.notifications.publish({ scope: "PERSON", personId: person, key: "seed", title: "Seed", source: { plugin: "bench" } });

interface Row {
  workload: string;
  heap?: { before: number; after: number };
  time?: { label: string; measured: number; baseline: number };
}
const rows: Row[] = [];

/** The heap ratio of `work`, run once small to warm up (JIT, pools and caches reach their steady size). */
async function heapOf(workload: string, warmUp: () => Promise<unknown>, work: () => Promise<unknown>): Promise<Row> {
  await warmUp();
  const before = await settledHeap();
  await work();
  const row: Row = { workload, heap: { before, after: await settledHeap() } };
  rows.push(row);
  return row;
}

/** `count` plain requests one after another: the baseline of a sequential workload's wall time. */
async function plainRequests(count: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) await gql(personToken, "{ __typename }");
  return performance.now() - started;
}

// 1. Dropped subscriptions (was server/test/api/stream-resources.test.ts: below 8 MiB over 10,000).
async function openAndDrop(count: number, concurrency: number) {
  for (let done = 0; done < count; done += concurrency) {
    const controllers = await Promise.all(
      Array.from({ length: Math.min(concurrency, count - done) }, async () => {
        const controller = new AbortController();
        const response = await fetch(streamUrl, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${personToken}` },
          body: JSON.stringify({ query: "subscription { notificationEvents { cursor } }" }),
          signal: controller.signal,
        });
        await response.body!.getReader().read(); // open once its first comment arrives
        return controller;
      }),
    );
    for (const c of controllers) c.abort();
  }
  // The aborts reach the server on later turns; the heap is read once every listener is gone.
  while (herald.feed.listenerCount > 0) await new Promise((resolve) => setTimeout(resolve, 10));
}
const subscriptions = scale(10_000);
log(`opening and dropping ${subscriptions} subscriptions`);
await heapOf(
  `${subscriptions} dropped subscriptions`,
  () => openAndDrop(500, 250),
  () => openAndDrop(subscriptions, 250),
);

// 2. Anonymous reservations (was server/test/security/stream-door.test.ts: below 4 MiB over 20,000).
/** `count` copies of a raw request pipelined over 4 keep-alive sockets; resolves once all are answered. */
async function pipelined(raw: string, count: number, sockets = 4): Promise<void> {
  const { hostname, port } = new URL(streamUrl);
  await Promise.all(
    Array.from({ length: sockets }, (_, s) => {
      const share = Math.floor(count / sockets) + (s < count % sockets ? 1 : 0);
      return new Promise<void>((resolve, reject) => {
        const socket = connect(Number(port), hostname);
        let answered = 0;
        let pending = "";
        socket.on("error", reject);
        socket.on("data", (chunk) => {
          pending += chunk.toString("latin1");
          const heads = pending.split("HTTP/1.1 ");
          answered += heads.length - 1;
          pending = heads[heads.length - 1]!;
          if (answered >= share) {
            socket.end();
            resolve();
          }
        });
        for (let sent = 0; sent < share; sent += 100) socket.write(raw.repeat(Math.min(100, share - sent)));
      });
    }),
  );
}
const reservations = scale(20_000);
const { host, pathname } = new URL(streamUrl);
const put = `PUT ${pathname} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\n\r\n`;
log(`refusing ${reservations} anonymous reservations`);
await heapOf(
  `${reservations} anonymous reservations`,
  () => pipelined(put, 500),
  () => pipelined(put, reservations),
);

// 3. Refused multi-MB documents (was server/test/security/refuse-before-work.test.ts: below 32 MiB
// over 12 of 2.2 MB), and how long another query waited meanwhile.
const repeatedViewer = (bytes: number) => `{ ${"viewer{id} ".repeat(Math.ceil(bytes / 11))}}`;
const attack = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    fetch(i % 2 === 0 ? url : streamUrl, {
      method: "POST",
      headers: { "content-type": "application/json", ...(i % 2 === 0 ? {} : { accept: "text/event-stream" }) },
      body: JSON.stringify({ query: repeatedViewer(2.2 * MiB + i) }),
    }).then((r) => r.text()),
  );
const timedViewer = async () => {
  const started = performance.now();
  await gql(personToken, "{ viewer { id } }");
  return performance.now() - started;
};
const documents = Math.max(2, scale(12));
log(`refusing ${documents} documents of 2.2 MB`);
let idleMs = 0;
let attackedMs = 0;
const refused = await heapOf(
  `${documents} refused 2.2 MB documents`,
  () => Promise.all(attack(2)),
  async () => {
    // Idle: the median of five, as the one measured during the refusals cannot be repeated.
    const idle: number[] = [];
    for (let i = 0; i < 5; i++) idle.push(await timedViewer());
    idleMs = idle.sort((a, b) => a - b)[2]!;
    const attacks = attack(documents);
    attackedMs = await timedViewer();
    await Promise.all(attacks);
  },
);
refused.time = { label: "a query during them / idle", measured: attackedMs, baseline: idleMs };

// 4. Seeded fuzzing (was server/test/security/fuzz.test.ts: below 32 MiB over 2,000 cases), and
// the run's wall time against as many plain requests.
const schema = buildSchema(readFileSync(new URL("../server/schema.graphql", import.meta.url), "utf8"));
const credentials = [null, personToken, producerKey, "herald_pt_forged", "Basic abc"];
const fuzz = (cases: number, seed: number) => fuzzCases({ url, streamUrl, schema, credentials }, cases, seed);
const cases = scale(2_000);
log(`fuzzing ${cases} cases`);
let fuzzMs = 0;
const fuzzed = await heapOf(
  `${cases} fuzz cases`,
  () => fuzz(100, 1),
  async () => {
    const started = performance.now();
    await fuzz(cases, Number(process.env.HERALD_FUZZ_SEED ?? 20_261_130));
    fuzzMs = performance.now() - started;
  },
);
fuzzed.time = { label: "the run / as many plain requests", measured: fuzzMs, baseline: await plainRequests(cases) };

await server.close();
await herald.close();
await database.drop();

console.log(`\nretention (${small ? "small" : "full"} run; heap settled after collection, this process)`);
console.log("workload                              heap before -> after MiB    ratio   time ms (baseline)    ratio");
for (const row of rows) {
  const heap = row.heap
    ? `${(row.heap.before / MiB).toFixed(1).padStart(7)} -> ${(row.heap.after / MiB).toFixed(1).padStart(7)}    ${(row.heap.after / row.heap.before).toFixed(2).padStart(5)}x`
    : "";
  const time = row.time
    ? `   ${row.time.measured.toFixed(0).padStart(7)} (${row.time.baseline.toFixed(0)})    ${(row.time.measured / row.time.baseline).toFixed(2).padStart(6)}x  ${row.time.label}`
    : "";
  console.log(`${row.workload.padEnd(36)}  ${heap}${time}`);
}
