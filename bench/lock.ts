// `/health` while another process holds the SQLite file's write lock (a backup, `sqlite3` in a
// shell): Herald serves a SQLite store, a second process takes the write lock with BEGIN IMMEDIATE
// and holds it for 10 s, and meanwhile a publish is sent every 500 ms (each must wait for the lock)
// while `/health` is asked one request after another. The report is /health's p50 and p99 during
// the hold, beside the same figures with no lock held. Goal: p99 <= 50 ms during the hold.
//
//   npm run bench:lock [-- --hold-ms 10000]
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { holdSqliteWriteLock } from "@herald/testkit";
import { createSqliteDatabase } from "./databases.ts";
import { createCredentials, startHerald } from "./herald-process.ts";
import { killAllChildren } from "./processes.ts";

const { values } = parseArgs({ options: { "hold-ms": { type: "string", default: "10000" } } });
const holdMs = Number(values["hold-ms"]);

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** /health one request after another for `ms`; each request's latency. */
async function healthFor(url: URL, ms: number): Promise<number[]> {
  const samples: number[] = [];
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const started = performance.now();
    const response = await fetch(new URL("/health", url));
    await response.arrayBuffer();
    samples.push(performance.now() - started);
  }
  return samples;
}

const database = await createSqliteDatabase();
try {
  const credentials = await createCredentials(database.url);
  const herald = await startHerald(database.url, { LOG_LEVEL: "error" });
  const publish = (key: string) =>
    fetch(new URL("/graphql", herald.url), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${credentials.producerKey}` },
      body: JSON.stringify({
        query: `mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { __typename } }`,
        variables: { input: { scope: "PERSON", personId: credentials.addresseeId, key, title: key, source: { plugin: "bench" } } },
      }),
    }).then(async (r) => ({ status: r.status, body: await r.text() }));
  try {
    await publish("warm-up");
    const free = await healthFor(herald.url, 2_000);
    const holder = await holdSqliteWriteLock(database.location);
    const publishes: Promise<{ status: number; body: string }>[] = [];
    const sender = setInterval(() => publishes.push(publish(`held-${publishes.length}`)), 500);
    const held = await healthFor(herald.url, holdMs);
    clearInterval(sender);
    await holder.release();
    const outcomes = await Promise.all(publishes);
    const ok = outcomes.filter((o) => o.status === 200 && o.body.includes('"Notification"')).length;
    const row = (name: string, s: number[]) =>
      `${name.padEnd(22)} ${String(s.length).padStart(6)} ${percentile(s, 50).toFixed(1).padStart(8)} ${percentile(s, 99).toFixed(1).padStart(8)} ${Math.max(
        ...s,
      )
        .toFixed(1)
        .padStart(8)}`;
    console.log(`\n/health while another process holds the SQLite write lock for ${holdMs} ms`);
    console.log(`${"".padEnd(22)} ${"n".padStart(6)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"max ms".padStart(8)}`);
    console.log(row("no lock held", free));
    console.log(row("lock held", held));
    console.log(`publishes during the hold: ${outcomes.length}, written after it: ${ok}, refused: ${outcomes.length - ok}`);
    console.log(
      `p99 during the hold / p99 free: ${(percentile(held, 99) / percentile(free, 99)).toFixed(1)}; goal p99 <= 50 ms: ${percentile(held, 99) <= 50 ? "MET" : "NOT MET"}`,
    );
  } finally {
    await herald.stop();
  }
} finally {
  await database.drop();
  killAllChildren();
}
