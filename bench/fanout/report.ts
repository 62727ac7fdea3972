// The readable tables, the verdict on the issue's targets, and the JSON record of a run.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fanoutConfig, type TargetName } from "./config.ts";
import type { ScenarioResult } from "./scenario.ts";

type Value = number | null | undefined;

const fmt = (n: Value, digits = 0) =>
  n === null || n === undefined || Number.isNaN(n) ? "-" : n.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Herald's figure over a baseline's; null when either is missing (e.g. lost deliveries). */
export function ratio(herald: Value, baseline: Value): number | null {
  if (herald === null || herald === undefined || baseline === null || baseline === undefined || baseline <= 0) return null;
  return Math.round((herald / baseline) * 100) / 100;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

interface Metric {
  label: string;
  value(r: ScenarioResult): Value;
  digits?: number;
  /** Whether Herald/baseline means something for this row. */
  ratio?: boolean;
  /** Shown instead of "-" when the value is missing because deliveries were lost. */
  missing?(r: ScenarioResult): string | null;
  /** A cell that is not a single number. */
  format?(r: ScenarioResult): string | null;
}

const lostMark = (phase: "steady" | "burst") => (r: ScenarioResult) => (r[phase] && r[phase].lost > 0 ? "lost" : null);

const metrics: Metric[] = [
  { label: "subscribers connected", value: (r) => r.connect?.open },
  { label: "steady latency p50 (ms)", value: (r) => r.steady?.latencyMs.p50, digits: 1, ratio: true, missing: lostMark("steady") },
  { label: "steady latency p99 (ms)", value: (r) => r.steady?.latencyMs.p99, digits: 1, ratio: true, missing: lostMark("steady") },
  { label: "steady latency max (ms)", value: (r) => r.steady?.latencyMs.max, digits: 1, ratio: true, missing: lostMark("steady") },
  { label: "steady completion p50 (ms)", value: (r) => r.steady?.completionMs.p50, digits: 1, ratio: true, missing: lostMark("steady") },
  { label: "steady completion p99 (ms)", value: (r) => r.steady?.completionMs.p99, digits: 1, ratio: true, missing: lostMark("steady") },
  { label: "steady deliveries/s achieved", value: (r) => r.steady?.deliveriesPerSecond, ratio: true },
  { label: "burst completion (ms)", value: (r) => r.burst?.completionTimeMs, digits: 0, ratio: true, missing: lostMark("burst") },
  { label: "burst deliveries/s", value: (r) => r.burst?.deliveriesPerSecond, ratio: true },
  {
    label: "capacity, events/s (burst deliveries/s / N)",
    value: (r) => (r.burst?.deliveriesPerSecond ? r.burst.deliveriesPerSecond / r.subscribers : null),
    digits: 0,
    ratio: true,
  },
  { label: "lost deliveries (steady + burst)", value: (r) => (r.steady || r.burst ? (r.steady?.lost ?? 0) + (r.burst?.lost ?? 0) : undefined) },
  { label: "publish requests failed", value: (r) => (r.steady || r.burst ? (r.steady?.publishErrors ?? 0) + (r.burst?.publishErrors ?? 0) : undefined) },
  {
    label: "connections dropped by server",
    value: (r) => (r.steady || r.burst ? (r.steady?.droppedConnections ?? 0) + (r.burst?.droppedConnections ?? 0) : undefined),
  },
  { label: "RSS per connection (KiB)", value: (r) => r.memory?.perConnectionKiB, digits: 1, ratio: true },
  {
    label: "RSS idle -> connected (MiB)",
    value: (r) => r.memory?.connectedMiB,
    format: (r) => (r.memory ? `${fmt(r.memory.beforeMiB)} -> ${fmt(r.memory.connectedMiB)}` : null),
  },
  { label: "RSS after steady (MiB)", value: (r) => r.memory?.afterSteadyMiB, digits: 0 },
  { label: "server CPU, steady (cores)", value: (r) => r.steady?.cpu.server, digits: 2 },
  { label: "subscriber CPU, steady (cores)", value: (r) => r.steady?.cpu.subscribers, digits: 2 },
  { label: "publish round trip p99 (ms)", value: (r) => r.steady?.publishRoundTripMs.p99, digits: 1 },
];

function cell(r: ScenarioResult | undefined, metric: Metric): string {
  if (!r) return "n/a";
  if (r.error && !r.steady && !r.burst && !r.memory) return "failed";
  const value = metric.value(r);
  if ((value === null || value === undefined) && metric.missing) return metric.missing(r) ?? "-";
  const formatted = metric.format?.(r);
  if (formatted) return formatted;
  return fmt(value, metric.digits ?? 0);
}

function byTarget(results: ScenarioResult[], size: number): Partial<Record<TargetName, ScenarioResult>> {
  const found: Partial<Record<TargetName, ScenarioResult>> = {};
  for (const r of results) if (r.subscribers === size) found[r.target] = r;
  return found;
}

export function renderTables(results: ScenarioResult[]): string {
  const out: string[] = [];
  const sizes = [...new Set(results.map((r) => r.subscribers))];
  const c = fanoutConfig;
  for (const size of sizes) {
    const t = byTarget(results, size);
    const rows = metrics.map((m) => {
      const herald = t.herald ? m.value(t.herald) : null;
      const ratioCell = (baseline: ScenarioResult | undefined) => (m.ratio && baseline ? fmt(ratio(herald, m.value(baseline)), 2) : "");
      return [m.label, cell(t.herald, m), cell(t.bare, m), cell(t.nchan, m), ratioCell(t.bare), ratioCell(t.nchan)];
    });
    out.push(
      `${size.toLocaleString("en")} subscribers: steady ${c.steadyRate} events/s for ${c.steadySeconds} s (${(c.steadyRate * c.steadySeconds).toLocaleString("en")} events), burst of ${c.burstEvents} events; every event to every subscriber`,
      table(["", "Herald", "bare node:http", "nginx+nchan", "Herald/bare", "Herald/nchan"], rows),
      "",
    );
    for (const r of Object.values(t)) {
      if (r.error) out.push(`  ${r.target}: FAILED: ${r.error}`);
      for (const phase of [r.burst, r.steady]) {
        if (phase?.publishErrors) out.push(`  ${r.target}: ${phase.publishErrors} publish requests failed, e.g. ${phase.publishErrorSamples[0]}`);
      }
      if (r.steady && r.steady.cpu.other >= 0.25) {
        out.push(`  ${r.target}: other work on the machine used ${r.steady.cpu.other} cores during the steady phase; its figures are noisy.`);
      }
      if (r.target !== "herald" && r.steady && r.steady.cpu.subscribers >= 0.9) {
        out.push(
          `  ${r.target}: the subscriber process was near a full core (${r.steady.cpu.subscribers}); its figures are partly the load generator's limit (an upper bound on the server's).`,
        );
      }
    }
  }
  out.push(...renderTargets(results).lines);
  out.push(
    "",
    "latency: publish to receive over every (subscriber, event) pair. completion: per event, publish to the last subscriber receiving it.",
    "'lost': deliveries missing at the deadline make that percentile undefined (counted as infinitely late). Ratios: Herald's figure over the baseline's; for times and memory above 1 means Herald is slower / uses more, for deliveries/s and capacity below 1 means Herald is slower.",
  );
  return out.join("\n");
}

export interface TargetVerdict {
  name: string;
  met: boolean | null;
  detail: string;
}

export function renderTargets(results: ScenarioResult[]): { verdicts: TargetVerdict[]; lines: string[] } {
  const { p99Ms, p99AtSubscribers, completionOverNchan } = fanoutConfig.targets;
  const verdicts: TargetVerdict[] = [];

  const big = results.find((r) => r.target === "herald" && r.subscribers === p99AtSubscribers);
  if (!big?.steady) {
    verdicts.push({ name: `p99 < ${p99Ms} ms at ${fanoutConfig.steadyRate} events/s with ${p99AtSubscribers} subscribers`, met: null, detail: "not measured" });
  } else {
    const p99 = big.steady.latencyMs.p99;
    const met = p99 !== null && p99 < p99Ms && big.steady.lost === 0 && big.steady.publishErrors === 0 && big.connect?.open === p99AtSubscribers;
    verdicts.push({
      name: `p99 < ${p99Ms} ms at ${fanoutConfig.steadyRate} events/s with ${p99AtSubscribers.toLocaleString("en")} subscribers`,
      met,
      detail: `Herald p99 ${p99 === null ? `undefined (${big.steady.lost.toLocaleString("en")} of ${big.steady.expected.toLocaleString("en")} deliveries lost)` : `${fmt(p99, 1)} ms`}, ${big.connect?.open ?? 0} connected, server CPU ${big.steady.cpu.server} cores`,
    });
  }

  const parts: string[] = [];
  let allMet: boolean | null = true;
  for (const size of [...new Set(results.map((r) => r.subscribers))]) {
    const t = byTarget(results, size);
    if (!t.herald || !t.nchan) {
      allMet = null;
      continue;
    }
    const burst = ratio(t.herald.burst?.completionTimeMs, t.nchan.burst?.completionTimeMs);
    const steady = ratio(t.herald.steady?.completionMs.p99, t.nchan.steady?.completionMs.p99);
    parts.push(
      `${size.toLocaleString("en")}: burst ${burst === null ? "undefined" : `${fmt(burst, 2)}x`}, steady p99 ${steady === null ? "undefined" : `${fmt(steady, 2)}x`}`,
    );
    if (allMet !== null && !(burst !== null && burst <= completionOverNchan && steady !== null && steady <= completionOverNchan)) allMet = false;
  }
  verdicts.push({
    name: `Herald within ${completionOverNchan}x of nchan on fan-out completion time (burst and steady p99, every size)`,
    met: parts.length === 0 ? null : allMet,
    detail: parts.join("; ") || "nchan not measured",
  });

  verdicts.push(...renderOnceVerdicts(results));

  const lines = ["Targets (from the issues):"];
  for (const v of verdicts) lines.push(`  [${v.met === null ? "n/a" : v.met ? "MET" : "NOT MET"}] ${v.name}: ${v.detail}`);
  return { verdicts, lines };
}

export function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Render once and write bytes: Herald's burst deliveries/s beside bare and nchan, and its RSS per subscriber. */
function renderOnceVerdicts(results: ScenarioResult[]): TargetVerdict[] {
  const { subscribers, overBare, overNchan, perConnectionKiB } = fanoutConfig.renderOnce;
  const t = byTarget(results, subscribers);
  const size = subscribers.toLocaleString("en");
  const beside = (baseline: "bare" | "nchan", goal: number): TargetVerdict => {
    const name = `Herald burst deliveries/s >= ${goal} of ${baseline}'s at ${size} subscribers`;
    const r = ratio(t.herald?.burst?.deliveriesPerSecond, t[baseline]?.burst?.deliveriesPerSecond);
    if (r === null) return { name, met: null, detail: `${baseline} or Herald not measured` };
    return { name, met: r >= goal, detail: `${fmt(r, 2)} (${t.herald!.burst!.deliveriesPerSecond} / ${t[baseline]!.burst!.deliveriesPerSecond})` };
  };
  const kib = t.herald?.memory?.perConnectionKiB;
  return [
    beside("bare", overBare),
    beside("nchan", overNchan),
    {
      name: `Herald RSS per subscriber <= ${perConnectionKiB} KiB at ${size} subscribers`,
      met: kib === undefined ? null : kib <= perConnectionKiB,
      detail: kib === undefined ? "not measured" : `${fmt(kib, 1)} KiB`,
    },
  ];
}
