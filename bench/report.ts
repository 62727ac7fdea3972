// The human-readable table and the JSON record of a run.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ProviderName } from "./config.ts";
import type { ListResult } from "./list.ts";
import type { PublishComparison } from "./publish.ts";
import type { SeenResult } from "./seen.ts";

export interface ProviderResult {
  provider: ProviderName;
  database: string;
  databaseVersion: string;
  publish?: { newKeys: PublishComparison; sameKey: PublishComparison };
  list?: ListResult;
  seen?: SeenResult;
  error?: string;
}

const fmt = (n: number | null | undefined, digits = 0) =>
  n === null || n === undefined || Number.isNaN(n) ? "-" : n.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

interface Goals {
  publishOverFloor: number;
  listFloorOverHerald: number;
  seenP50Ms: number;
}

const verdict = (met: boolean) => (met ? "MET" : "NOT MET");

/** Herald beside the framework floor (bare graphql-yoga + the raw driver), against the performance goals. */
function floorTable(results: ProviderResult[], goals: Goals): string {
  const rows: string[][] = [];
  for (const r of results) {
    if (r.publish) {
      for (const [label, c] of [
        ["publish, new key (ops/s)", r.publish.newKeys],
        ["publish, same key (ops/s)", r.publish.sameKey],
      ] as const) {
        rows.push([
          r.provider,
          label,
          fmt(c.herald.opsPerSec),
          fmt(c.bare.opsPerSec),
          fmt(c.heraldOverBare, 2),
          `>= ${goals.publishOverFloor}`,
          verdict(c.heraldOverBare >= goals.publishOverFloor),
        ]);
      }
    }
    if (r.list) {
      for (const [label, c] of [
        ["list first page p50 (ms)", r.list.firstPage],
        ["list deep page p50 (ms)", r.list.deepPage],
      ] as const) {
        rows.push([
          r.provider,
          label,
          fmt(c.herald.p50Ms, 2),
          fmt(c.bare.p50Ms, 2),
          fmt(c.bareOverHeraldP50, 2),
          `>= ${goals.listFloorOverHerald}`,
          verdict(c.bareOverHeraldP50 >= goals.listFloorOverHerald),
        ]);
      }
    }
    if (r.seen) {
      rows.push([
        r.provider,
        `markNotificationsSeen ${r.seen.batch} ids p50 (ms)`,
        fmt(r.seen.herald.p50Ms, 1),
        fmt(r.seen.bare.p50Ms, 1),
        fmt(r.seen.heraldOverBareP50, 2),
        `Herald <= ${goals.seenP50Ms} ms`,
        verdict(r.seen.herald.p50Ms <= goals.seenP50Ms),
      ]);
    }
  }
  return [
    "Against the framework floor: a bare graphql-yoga server doing the same writes and keyset read with the raw driver",
    table(["provider", "figure", "Herald", "floor", "ratio", "goal", "verdict"], rows),
    "ratio: publish Herald/floor ops/s; list floor/Herald p50 (1 = as fast as the floor); seen Herald/floor p50 (the goal is absolute).",
  ].join("\n");
}

export function renderTables(
  results: ProviderResult[],
  config: { publishOps: number; concurrency: number; listRows: number; latencySamples: number; goals: Goals },
): string {
  const out: string[] = [floorTable(results, config.goals), ""];
  const publishRows: string[][] = [];
  for (const r of results) {
    if (!r.publish) continue;
    for (const [label, c] of [
      ["new key (insert)", r.publish.newKeys],
      ["same key (update)", r.publish.sameKey],
    ] as const) {
      const failures = c.herald.failed + c.raw.failed;
      publishRows.push([
        r.provider,
        label,
        fmt(c.herald.opsPerSec),
        `${fmt(c.herald.latency.p50Ms, 1)} / ${fmt(c.herald.latency.p95Ms, 1)}`,
        fmt(c.raw.opsPerSec),
        String(c.raw.concurrency),
        fmt(c.heraldOverRaw, 3),
        failures ? `${c.herald.failed} Herald, ${c.raw.failed} raw` : "0",
        c.revisionCheck ? (c.revisionCheck.herald.ok && c.revisionCheck.raw.ok ? "ok" : "MISMATCH") : "",
      ]);
    }
  }
  out.push(
    `Publish throughput: ${fmt(config.publishOps)} operations per figure, Herald over HTTP with ${config.concurrency} in flight`,
    table(["provider", "operation", "Herald ops/s", "Herald p50/p95 ms", "raw ops/s", "raw in flight", "Herald/raw", "failed", "revision"], publishRows),
    "",
  );

  const listRows: string[][] = [];
  for (const r of results) {
    if (!r.list) continue;
    for (const [label, c] of [
      ["first page", r.list.firstPage],
      [`deep page (after ${r.list.deepPage.startsAfterRow.toLocaleString("en")})`, r.list.deepPage],
    ] as const) {
      listRows.push([
        r.provider,
        label,
        `${fmt(c.herald.p50Ms, 2)} / ${fmt(c.herald.p95Ms, 2)}`,
        `${fmt(c.raw.p50Ms, 3)} / ${fmt(c.raw.p95Ms, 3)}`,
        `${fmt(c.heraldOverRawP50, 1)} / ${fmt(c.heraldOverRawP95, 1)}`,
        c.sameRows ? "yes" : "NO",
      ]);
    }
  }
  out.push(
    `List latency: ${fmt(config.listRows)} notifications for one person, first: 20, ${config.latencySamples} sequential requests per figure`,
    table(["provider", "page", "Herald p50/p95 ms", "raw p50/p95 ms", "Herald/raw p50/p95", "same rows"], listRows),
    "",
  );

  for (const r of results) {
    if (r.list) {
      out.push(
        `${r.provider}: seeded ${fmt(r.list.rows)} rows in ${fmt(r.list.seed.seconds, 1)} s; walked ${r.list.walk.pages} pages of ${r.list.walk.pageSize} in ${fmt(r.list.walk.seconds, 1)} s (${fmt(r.list.walk.meanPageMs, 1)} ms per page)`,
      );
    }
    if (r.error) out.push(`${r.provider}: FAILED: ${r.error}`);
  }
  out.push(
    "",
    "Herald/raw: for throughput Herald ops/s over raw ops/s (below 1: Herald is slower); for latency Herald ms over raw ms (above 1: Herald is slower).",
  );
  return out.join("\n");
}

export function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}
