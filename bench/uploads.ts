// `npm run bench:uploads [-- sqlite|postgresql]`: attachments against a real `herald serve`.
// 1. An anonymous multipart upload (refused) against the same body with the file unmapped: the
//    refusal must cost no more (ratio). 2. A producer's upload at 1, 4 and 10 MiB: time per MiB
//    must stay flat (linear growth). 3. Another person's trivial query while 4 downloads of a
//    10 MiB attachment run, as a multiple of the same query idle (p50, p99).
// Writes bench/results/uploads.json. Not part of the tests.
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { type BenchDatabase, createPostgresDatabase, createSqliteDatabase } from "./databases.ts";
import { benchCli, startHerald } from "./herald-process.ts";
import { killAllChildren } from "./processes.ts";
import { writeJson } from "./report.ts";

const MiB = 1024 * 1024;
const only = process.argv.find((a) => a === "sqlite" || a === "postgresql");
const providers = only ? [only] : ["sqlite", "postgresql"];
const log = (line: string) => console.log(`[uploads bench] ${line}`);
const resultsFile = fileURLToPath(new URL("./results/uploads.json", import.meta.url));
const UPLOAD = `mutation($file: File!) { uploadAsset(file: $file) { __typename ... on Asset { id } ... on ValidationError { message } } }`;

function form(bytes: Uint8Array, mapped: boolean): FormData {
  const body = new FormData();
  body.set("operations", JSON.stringify({ query: UPLOAD, variables: { file: null } }));
  body.set("map", JSON.stringify(mapped ? { 0: ["variables.file"] } : {}));
  body.set("0", new Blob([new Uint8Array(bytes)], { type: "application/octet-stream" }), "bench.bin");
  return body;
}

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function runProvider(provider: string) {
  const database: BenchDatabase = provider === "sqlite" ? await createSqliteDatabase() : await createPostgresDatabase();
  const cli = benchCli(database.url);
  const reader = await cli.createPerson("Bench reader");
  const other = await cli.createPerson("Bench other");
  const producerKey = await cli.createProducerKey("bench");
  const herald = await startHerald(database.url);
  const graphql = new URL("/graphql", herald.url).toString();
  const post = (token: string | null, body: BodyInit, json = false) =>
    fetch(graphql, {
      method: "POST",
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(json ? { "content-type": "application/json" } : {}) },
      body,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  try {
    // 1. Anonymous refusals, mapped against unmapped, interleaved so both meet the same machine.
    const quarter = new Uint8Array(250 * 1024).fill(0x61);
    const mapped: number[] = [];
    const unmapped: number[] = [];
    for (let i = 0; i < 40; i++) {
      mapped.push(await timed(() => post(null, form(quarter, true))));
      unmapped.push(await timed(() => post(null, form(quarter, false))));
    }
    const refusal = { mappedP50Ms: percentile(mapped, 50), unmappedP50Ms: percentile(unmapped, 50), ratio: percentile(mapped, 50) / percentile(unmapped, 50) };
    log(`${provider}: anonymous 250 KiB upload refused in ${refusal.mappedP50Ms.toFixed(1)} ms p50, unmapped ${refusal.unmappedP50Ms.toFixed(1)} ms: ratio ${refusal.ratio.toFixed(2)}`);

    // 2. A producer's uploads: time per MiB at each size (median of 3).
    const perMiB: Record<string, number> = {};
    let assetId = "";
    for (const size of [1, 4, 10]) {
      const bytes = new Uint8Array(size * MiB - 64 * 1024).map((_, i) => i % 251);
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        times.push(
          await timed(async () => {
            const r = await post(producerKey, form(bytes, true));
            if (r.body.data?.uploadAsset?.__typename !== "Asset") throw new Error(`upload failed: ${JSON.stringify(r.body)}`);
            assetId = r.body.data.uploadAsset.id;
          }),
        );
      }
      perMiB[`${size}MiB`] = percentile(times, 50) / size;
      log(`${provider}: producer upload of ${size} MiB: ${percentile(times, 50).toFixed(0)} ms (${perMiB[`${size}MiB`]!.toFixed(1)} ms per MiB)`);
    }

    // 3. The last (10 MiB) upload as a reader's attachment; another person's query while it downloads.
    const published = await post(
      producerKey,
      JSON.stringify({
        query: `mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { __typename } }`,
        variables: { input: { scope: "PERSON", personId: reader.id, key: "bench", title: "Attachment", source: { plugin: "bench" }, actions: [{ kind: "DOWNLOAD_ATTACHMENT_ASSET", id: "file", label: "Get", assetId }] } },
      }),
      true,
    );
    if (published.body.data?.publishNotification?.__typename !== "Notification") throw new Error(JSON.stringify(published.body));
    const query = () => post(other.token, JSON.stringify({ query: "{ notificationCounts { total } }" }), true);
    const queries = async (count: number) => {
      const samples: number[] = [];
      for (let i = 0; i < count; i++) samples.push(await timed(query));
      return samples;
    };
    await queries(10);
    const idle = await queries(40);
    let stop = false;
    let downloads = 0;
    const download = async () => {
      while (!stop) {
        const r = await fetch(new URL(`/assets/${assetId}`, herald.url), { headers: { authorization: `Bearer ${reader.token}` } });
        if (r.status !== 200) throw new Error(`download answered ${r.status}`);
        await r.arrayBuffer();
        downloads++;
      }
    };
    const downloaders = Array.from({ length: 4 }, download);
    const busy = await queries(40);
    stop = true;
    await Promise.all(downloaders);
    const latency = {
      idleP50Ms: percentile(idle, 50),
      idleP99Ms: percentile(idle, 99),
      busyP50Ms: percentile(busy, 50),
      busyP99Ms: percentile(busy, 99),
      p50Multiple: percentile(busy, 50) / percentile(idle, 50),
      p99Multiple: percentile(busy, 99) / percentile(idle, 99),
      downloadsCompleted: downloads,
    };
    log(
      `${provider}: another person's query idle p50 ${latency.idleP50Ms.toFixed(1)} ms, during 4 downloads p50 ${latency.busyP50Ms.toFixed(1)} ms (${latency.p50Multiple.toFixed(1)}x), p99 ${latency.busyP99Ms.toFixed(1)} ms (${latency.p99Multiple.toFixed(1)}x); ${downloads} downloads done`,
    );
    return { provider, refusal, producerUploadMsPerMiB: perMiB, queryDuringDownloads: latency };
  } finally {
    await herald.stop();
    await database.drop();
  }
}

const startedAt = new Date().toISOString();
const results = [];
try {
  for (const provider of providers) results.push(await runProvider(provider));
} finally {
  killAllChildren();
}
writeJson(resultsFile, { startedAt, results });
log(`written to ${resultsFile}`);
