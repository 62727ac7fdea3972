// `npm run bench:uploads [-- sqlite|postgresql|postgresql+files]`: attachments against a real
// `herald serve` (postgresql+files: PostgreSQL with HERALD_ASSET_DIR, the bytes as files).
// 1. An anonymous multipart upload (refused) against the same body with the file unmapped: the
//    refusal must cost no more (ratio). 2. A producer's upload at 1, 4 and 10 MiB: time per MiB
//    must stay flat (linear growth). 3. Another person's trivial query while 4 downloads of a
//    10 MiB attachment run, as a multiple of the same query idle (p50, p99).
// Writes bench/results/uploads.json. Not part of the tests.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startBare } from "./bare-process.ts";
import { type BenchDatabase, createPostgresDatabase, createSqliteDatabase } from "./databases.ts";
import { startDownloads } from "./download-load.ts";
import { benchCli, startHerald } from "./herald-process.ts";
import { killAllChildren } from "./processes.ts";
import { writeJson } from "./report.ts";

const MiB = 1024 * 1024;
const DOWNLOADERS = 4;
const BUSY_MS = 5_000;
const bareFiles = fileURLToPath(new URL("./bare-files.ts", import.meta.url));
// "postgresql+files": PostgreSQL with HERALD_ASSET_DIR set (the bytes as files, as on SQLite).
const variants = ["sqlite", "postgresql", "postgresql+files"];
const only = process.argv.find((a) => variants.includes(a));
const providers = only ? [only] : variants;
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

/** Sequential requests' durations, in ms: at least `count`, and for at least `forMs`. */
async function samplesOf(request: () => Promise<unknown>, count: number, forMs = 0): Promise<number[]> {
  const samples: number[] = [];
  const until = performance.now() + forMs;
  while (samples.length < count || performance.now() < until) samples.push(await timed(request));
  return samples;
}

/**
 * `request` for BUSY_MS (at least 40 times) idle, then as long again while DOWNLOADERS clients (in their
 * own process) fetch `download` back to back: p50 and p99 as multiples of idle, and how many
 * downloads completed. A window of fixed time, so a fast server is not measured during less load.
 */
async function queryDuringDownloads(request: () => Promise<unknown>, download: URL, token: string | null) {
  await samplesOf(request, 10);
  const idle = await samplesOf(request, 40, BUSY_MS);
  const downloads = await startDownloads(download, token, DOWNLOADERS);
  const busy = await samplesOf(request, 40, BUSY_MS);
  const downloadsCompleted = await downloads.stop();
  return {
    idleSamples: idle.length,
    busySamples: busy.length,
    idleP50Ms: percentile(idle, 50),
    idleP99Ms: percentile(idle, 99),
    busyP50Ms: percentile(busy, 50),
    busyP99Ms: percentile(busy, 99),
    p50Multiple: percentile(busy, 50) / percentile(idle, 50),
    p99Multiple: percentile(busy, 99) / percentile(idle, 99),
    downloadsCompleted,
  };
}

function describe(l: Awaited<ReturnType<typeof queryDuringDownloads>>): string {
  return `idle p50 ${l.idleP50Ms.toFixed(1)} ms, during ${DOWNLOADERS} downloads p50 ${l.busyP50Ms.toFixed(1)} ms (${l.p50Multiple.toFixed(1)}x), p99 ${l.busyP99Ms.toFixed(1)} ms (${l.p99Multiple.toFixed(1)}x); ${l.busySamples} requests, ${l.downloadsCompleted} downloads done`;
}

/** The same measurement against bare-files.ts serving `bytes` from a file. */
async function floorDuringDownloads(bytes: Uint8Array) {
  const dir = mkdtempSync(join(tmpdir(), "herald-bench-floor-"));
  const file = join(dir, "attachment.bin");
  writeFileSync(file, bytes);
  const bare = await startBare({ BARE_FILE: file }, bareFiles);
  try {
    const body = JSON.stringify({ query: "{ notificationCounts { total } }" });
    const request = () => fetch(new URL("/json", bare.url), { method: "POST", headers: { "content-type": "application/json" }, body }).then((r) => r.json());
    return await queryDuringDownloads(request, new URL("/file", bare.url), null);
  } finally {
    await bare.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runProvider(provider: string) {
  const database: BenchDatabase = provider === "sqlite" ? await createSqliteDatabase() : await createPostgresDatabase();
  const assetDir = provider === "postgresql+files" ? mkdtempSync(join(tmpdir(), "herald-bench-assets-")) : null;
  const cli = benchCli(database.url);
  const reader = await cli.createPerson("Bench reader");
  const other = await cli.createPerson("Bench other");
  const producerKey = await cli.createProducerKey("bench");
  const herald = await startHerald(database.url, assetDir ? { HERALD_ASSET_DIR: assetDir } : {});
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
    log(
      `${provider}: anonymous 250 KiB upload refused in ${refusal.mappedP50Ms.toFixed(1)} ms p50, unmapped ${refusal.unmappedP50Ms.toFixed(1)} ms: ratio ${refusal.ratio.toFixed(2)}`,
    );

    // 2. A producer's uploads: time per MiB at each size (median of 3).
    const perMiB: Record<string, number> = {};
    let assetId = "";
    let lastUpload = new Uint8Array(0);
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
      lastUpload = bytes;
      perMiB[`${size}MiB`] = percentile(times, 50) / size;
      log(`${provider}: producer upload of ${size} MiB: ${percentile(times, 50).toFixed(0)} ms (${perMiB[`${size}MiB`]!.toFixed(1)} ms per MiB)`);
    }

    // 3. The last (10 MiB) upload as a reader's attachment; another person's query while it downloads.
    const published = await post(
      producerKey,
      JSON.stringify({
        query: `mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { __typename } }`,
        variables: {
          input: {
            scope: "PERSON",
            personId: reader.id,
            key: "bench",
            title: "Attachment",
            source: { plugin: "bench" },
            actions: [{ kind: "DOWNLOAD_ATTACHMENT_ASSET", id: "file", label: "Get", assetId }],
          },
        },
      }),
      true,
    );
    if (published.body.data?.publishNotification?.__typename !== "Notification") throw new Error(JSON.stringify(published.body));
    const query = () => post(other.token, JSON.stringify({ query: "{ notificationCounts { total } }" }), true);
    const latency = await queryDuringDownloads(query, new URL(`/assets/${assetId}`, herald.url), reader.token);
    log(`${provider}: another person's query ${describe(latency)}`);

    // 4. The floor, right after: node:http serving the same bytes from a file, and a trivial JSON answer.
    const floor = await floorDuringDownloads(lastUpload);
    log(`${provider}: floor (bare node:http) JSON request ${describe(floor)}`);
    log(
      `${provider}: p50 multiple Herald ${latency.p50Multiple.toFixed(1)}x vs floor ${floor.p50Multiple.toFixed(1)}x; p99 ${latency.p99Multiple.toFixed(1)}x vs ${floor.p99Multiple.toFixed(1)}x`,
    );
    return { provider, refusal, producerUploadMsPerMiB: perMiB, queryDuringDownloads: latency, floorDuringDownloads: floor };
  } finally {
    await herald.stop();
    await database.drop();
    if (assetDir) rmSync(assetDir, { recursive: true, force: true });
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
