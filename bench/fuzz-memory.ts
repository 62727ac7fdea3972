// `npm run bench:fuzz-memory [-- sqlite|postgresql] [--minutes N] [--snapshots DIR]` (default sqlite, 10 minutes):
// does the server's memory come back after fuzzing for a long time? One Herald in this process
// (as the security suites run it) is fuzzed with seeded requests (fuzz-load.ts) for N minutes.
// Its heap, settled after collection, is read once a warm-up has filled the caches that are meant
// to fill (the parse cache holds up to 1,000 documents, the fuzzer makes new ones all the time),
// then after every minute, and once more after the last request: the goal is end / start <= 1.05,
// with no rise minute over minute. Writes bench/results/fuzz-memory.json.
// `--snapshots DIR` also writes V8 heap snapshots of this process (the server is in it) to DIR:
// start.heapsnapshot right after the start's reading, minute-1.heapsnapshot after the first
// minute's, end.heapsnapshot after the last. Each is taken after its reading, so the figures are
// those of a run without snapshots; `node --import tsx bench/heap-diff.ts A B` compares two.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { writeHeapSnapshot } from "node:v8";
import { buildSchema } from "graphql";
import { createHerald, startServer } from "@herald/server/app";
import { createLogger } from "@herald/server/logger";
import { createPostgresDatabase, createSqliteDatabase } from "./databases.ts";
import { fuzzCases } from "./fuzz-load.ts";
import { writeJson } from "./report.ts";
import { settledHeap } from "./settled-heap.ts";

const MiB = 1024 * 1024;
const provider = process.argv.includes("postgresql") ? "postgresql" : "sqlite";
const minutesAt = process.argv.indexOf("--minutes");
const minutes = minutesAt > 0 ? Number(process.argv[minutesAt + 1]) : 10;
if (!(minutes > 0)) throw new Error("--minutes takes a positive number");
const snapshotsAt = process.argv.indexOf("--snapshots");
const snapshotDir = snapshotsAt > 0 ? process.argv[snapshotsAt + 1] : undefined;
if (snapshotsAt > 0 && !snapshotDir) throw new Error("--snapshots takes a directory");
if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });
const log = (line: string) => console.log(`[fuzz-memory bench] ${line}`);
const resultsFile = fileURLToPath(new URL("./results/fuzz-memory.json", import.meta.url));
/** Cases per batch: the clock is checked between batches, the heap between minutes. */
const BATCH = 50;
/** Enough distinct documents to fill the parse cache (1,000) and warm every path. */
const WARM_UP = 1_500;

const database = provider === "postgresql" ? await createPostgresDatabase() : await createSqliteDatabase();
const herald = await createHerald({
  databaseUrl: database.url,
  logger: createLogger("silent"),
  tuning: { maxBufferedBytes: 64 * 1024, heartbeatMs: 60_000, maxStreamsPerCredential: 1_000, rateLimitPoints: 1_000_000 },
});
const server = await startServer(herald, 0, "127.0.0.1");
const url = `${server.url}/graphql`;
const producerKey = (await herald.services.auth.issueProducerKey("fuzz-memory-bench")).secret;
const call = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return ((await response.json()) as { data: any }).data;
};
const person = (await call(producerKey, `mutation { createPerson(input: { name: "Ada" }) { id } }`)).createPerson.id as string;
const personToken = (await call(producerKey, `mutation($id: ID!) { issuePersonToken(personId: $id) { token } }`, { id: person })).issuePersonToken
  .token as string;
await herald.services.notifications.publish({ scope: "PERSON", personId: person, key: "seed", title: "Seed", source: { plugin: "bench" } });

const schema = buildSchema(readFileSync(new URL("../server/schema.graphql", import.meta.url), "utf8"));
const target = { url, streamUrl: `${url}/stream`, schema, credentials: [null, personToken, producerKey, "herald_pt_forged", "Basic abc"] };
let seed = Number(process.env.HERALD_FUZZ_SEED ?? 20_261_130);

log(`${provider}: warming up with ${WARM_UP} cases`);
await fuzzCases(target, WARM_UP, 1);
const start = await settledHeap();
log(`${provider}: settled heap at the start ${(start / MiB).toFixed(1)} MiB; fuzzing for ${minutes} min`);
/** Synchronous: no request is served while V8 writes it, and the reading before it is unaffected. */
const snapshot = (name: string) => {
  if (!snapshotDir) return;
  const file = writeHeapSnapshot(join(snapshotDir, `${name}.heapsnapshot`));
  log(`${provider}: heap snapshot ${file}`);
};
snapshot("start");
const samples: { minute: number; cases: number; heapMiB: number; ratio: number }[] = [];
const began = performance.now();
let cases = 0;
for (let minute = 1; minute <= Math.ceil(minutes); minute++) {
  const until = began + Math.min(minute, minutes) * 60_000;
  while (performance.now() < until) {
    await fuzzCases(target, BATCH, seed++);
    cases += BATCH;
  }
  const heap = await settledHeap();
  samples.push({ minute: Math.min(minute, minutes), cases, heapMiB: heap / MiB, ratio: heap / start });
  log(`${provider}: after ${Math.min(minute, minutes)} min (${cases} cases): ${(heap / MiB).toFixed(1)} MiB, ${(heap / start).toFixed(3)}x the start`);
  if (minute === 1 && minutes > 1) snapshot("minute-1");
}
snapshot("end");
await server.close();
await herald.close();
await database.drop();

const end = samples.at(-1)!;
const rising = samples.length >= 3 && samples.slice(-3).every((s, i, last) => i === 0 || s.heapMiB > last[i - 1]!.heapMiB);
log(`${provider}: end / start ${end.ratio.toFixed(3)}x (goal <= 1.05)${rising ? ", still rising over the last three minutes" : ""}`);
writeJson(resultsFile, { provider, minutes, startMiB: start / MiB, samples, endRatio: end.ratio, rising });
