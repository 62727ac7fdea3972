// `npm run bench:fuzz-memory [-- sqlite|postgresql] [--minutes N] [--snapshots DIR] [--together]`
// (default sqlite, 10 minutes): does the server's memory come back after fuzzing for a long time?
// One Herald in a process of its own (fuzz-memory-server.ts; with --together, in this process
// beside the fuzzer, as the first measurements ran it) is fuzzed with seeded requests
// (fuzz-load.ts) for N minutes.
// Its heap, settled after collection, is read once a warm-up has filled the caches that are meant
// to fill (the parse cache holds up to 1,000 documents, the fuzzer makes new ones all the time),
// then after every minute, and once more after the last request: the goal is end / start <= 1.05,
// with no rise minute over minute. Writes bench/results/fuzz-memory.json.
// `--snapshots DIR` also writes V8 heap snapshots of the server's process to DIR:
// start.heapsnapshot right after the start's reading, minute-1.heapsnapshot after the first
// minute's, end.heapsnapshot after the last. Each is taken after its reading, so the figures are
// those of a run without snapshots; `node --import tsx bench/heap-diff.ts A B` compares two.
import { fork } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { buildSchema } from "graphql";
import { createPostgresDatabase, createSqliteDatabase } from "./databases.ts";
import { fuzzCases } from "./fuzz-load.ts";
import { type FuzzSubject, startSubject } from "./fuzz-subject.ts";
import { writeJson } from "./report.ts";

const MiB = 1024 * 1024;
const provider = process.argv.includes("postgresql") ? "postgresql" : "sqlite";
/** The first measurements ran the server in this process, so its heap held the fuzzer's too. */
const together = process.argv.includes("--together");
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
const subject = together ? await startSubject(database.url) : await startApart(database.url);
const { url, producerKey, personToken } = subject;

const schema = buildSchema(readFileSync(new URL("../server/schema.graphql", import.meta.url), "utf8"));
const target = { url, streamUrl: `${url}/stream`, schema, credentials: [null, personToken, producerKey, "herald_pt_forged", "Basic abc"] };
let seed = Number(process.env.HERALD_FUZZ_SEED ?? 20_261_130);

log(`${provider}: warming up with ${WARM_UP} cases`);
await fuzzCases(target, WARM_UP, 1);
const start = await subject.heap();
log(`${provider}: settled heap at the start ${(start / MiB).toFixed(1)} MiB; fuzzing for ${minutes} min`);
/** Taken after the reading it follows, so that reading is unaffected. */
const snapshot = async (name: string) => {
  if (!snapshotDir) return;
  log(`${provider}: heap snapshot ${await subject.snapshot(snapshotDir, name)}`);
};
await snapshot("start");
const samples: { minute: number; cases: number; heapMiB: number; ratio: number }[] = [];
const began = performance.now();
let cases = 0;
for (let minute = 1; minute <= Math.ceil(minutes); minute++) {
  const until = began + Math.min(minute, minutes) * 60_000;
  while (performance.now() < until) {
    await fuzzCases(target, BATCH, seed++);
    cases += BATCH;
  }
  const heap = await subject.heap();
  samples.push({ minute: Math.min(minute, minutes), cases, heapMiB: heap / MiB, ratio: heap / start });
  log(`${provider}: after ${Math.min(minute, minutes)} min (${cases} cases): ${(heap / MiB).toFixed(1)} MiB, ${(heap / start).toFixed(3)}x the start`);
  if (minute === 1 && minutes > 1) await snapshot("minute-1");
}
await snapshot("end");
await subject.close();
await database.drop();

const end = samples.at(-1)!;
const rising = samples.length >= 3 && samples.slice(-3).every((s, i, last) => i === 0 || s.heapMiB > last[i - 1]!.heapMiB);
log(`${provider}: end / start ${end.ratio.toFixed(3)}x (goal <= 1.05)${rising ? ", still rising over the last three minutes" : ""}`);
writeJson(resultsFile, {
  provider,
  measured: together ? "bench and server together" : "server alone",
  minutes,
  startMiB: start / MiB,
  samples,
  endRatio: end.ratio,
  rising,
});

/** The server in a child process of its own (fuzz-memory-server.ts), asked over IPC. */
async function startApart(databaseUrl: string): Promise<FuzzSubject> {
  const child = fork(fileURLToPath(new URL("./fuzz-memory-server.ts", import.meta.url)), {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, FUZZ_DATABASE_URL: databaseUrl },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (!(key in message)) return;
        child.off("message", onMessage);
        child.off("exit", onExit);
        resolve(message as T);
      };
      const onExit = (code: number | null) => reject(new Error(`the fuzzed server exited (${code}) before sending ${key}`));
      child.on("message", onMessage);
      child.once("exit", onExit);
    });
  const ready = await next<{ url: string; producerKey: string; personToken: string }>("ready");
  return {
    url: ready.url,
    producerKey: ready.producerKey,
    personToken: ready.personToken,
    heap: async () => {
      const answer = next<{ heap: number }>("heap");
      child.send("heap");
      return (await answer).heap;
    },
    snapshot: async (dir, name) => {
      const answer = next<{ snapshotFile: string }>("snapshotFile");
      child.send({ snapshot: [dir, name] });
      return (await answer).snapshotFile;
    },
    close: async () => {
      const exited = once(child, "exit");
      child.send("stop");
      await exited;
    },
  };
}
