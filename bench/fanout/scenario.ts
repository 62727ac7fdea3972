// One scenario: N subscribers on one server, then a burst and a steady publishing phase. The same
// code drives all three servers; only how they are started and published to differs.
import { fanoutConfig, type TargetName } from "./config.ts";
import type { FanoutServer, StartOptions } from "./fanout-server.ts";
import { quantileMs, quantileOf, type SparseHistogram } from "./latency-histogram.ts";
import { sleep } from "@herald/testkit";
import { round } from "../load.ts";
import { type CpuLayout } from "../processes.ts";
import { machineBusySeconds, processTree, treeCpuSeconds, treePeakRssMiB, treeRssMiB } from "./proc-stats.ts";
import { SubscriberPool } from "./subscriber-pool.ts";
import { nowMicros, type PhaseReport } from "./worker-protocol.ts";

export interface Percentiles {
  p50: number | null;
  p99: number | null;
  max: number | null;
}

export interface CpuUse {
  /** CPU seconds per wall second (1 = one core busy) over the steady phase. */
  server: number;
  subscribers: number;
  publisher: number;
  /** Everything else on the machine (kernel work not charged to a process included). */
  other: number;
}

export interface PhaseResult {
  events: number;
  /** Events whose publish failed before anyone received them: left out of every figure below. */
  eventsNotPublished: number;
  /** Subscribers x events. */
  expected: number;
  received: number;
  lost: number;
  duplicates: number;
  droppedConnections: number;
  publishErrors: number;
  publishErrorSamples: string[];
  complete: boolean;
  /** Publish to receive, over every (subscriber, event) pair; null where lost deliveries decide it. */
  latencyMs: Percentiles;
  /** Per event, publish to its last subscriber (fan-out completion); null where an event never completed. */
  completionMs: Percentiles;
  histogram: SparseHistogram;
}

export interface ScenarioResult {
  target: TargetName;
  subscribers: number;
  description?: string;
  version?: string;
  error?: string;
  connect?: { open: number; failed: number; errors: string[]; seconds: number };
  clockUncertaintyMs?: number;
  memory?: { beforeMiB: number; connectedMiB: number; perConnectionKiB: number; afterSteadyMiB: number; peakMiB: number };
  /** Readiness (barrier events) and the warm-up before the burst. */
  barrier?: { published: number; complete: boolean; warmUpEvents: number; warmUpComplete: boolean };
  burst?: PhaseResult & { completionTimeMs: number | null; deliveriesPerSecond: number | null };
  steady?: PhaseResult & {
    rate: number;
    seconds: number;
    /** How late the publisher sent against its schedule (its own CPU contention). */
    publishLagMs: Percentiles;
    /** Round trip of one publish request. */
    publishRoundTripMs: Percentiles;
    /** From the first publish until every delivery arrived (or the drain deadline). */
    wallSeconds: number;
    /** Deliveries received per second of that time. */
    deliveriesPerSecond: number;
    cpu: CpuUse;
  };
}

const roundOrNull = (value: number | null, digits = 2) => (value === null ? null : round(value, digits));

/** Runs count tasks, at most `lanes` at a time. */
async function inLanes(count: number, lanes: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(lanes, count) }, lane));
}

function percentilesOf(values: number[]): Percentiles {
  return { p50: roundOrNull(quantileOf(values, 0.5)), p99: roundOrNull(quantileOf(values, 0.99)), max: roundOrNull(quantileOf(values, 1)) };
}

function failureNote(phase: PhaseResult): string {
  return phase.publishErrors ? `; ${phase.publishErrors} publishes FAILED (${phase.publishErrorSamples.join(" | ")})` : "";
}

/** Counts failed publishes, keeps a few messages, and stops the subscribers waiting for their events. */
class PublishFailures {
  count = 0;
  readonly samples = new Set<string>();
  constructor(private readonly pool: SubscriberPool) {}

  record(seq: number, error: unknown) {
    this.count++;
    if (this.samples.size < 3) this.samples.add(error instanceof Error ? error.message.slice(0, 300) : String(error));
    void this.pool.cancel([seq]).catch(() => undefined);
  }
}

function phaseResult(report: PhaseReport, complete: boolean, failures: PublishFailures): PhaseResult {
  const expected = report.subscribers * (report.events - report.cancelled.length);
  const completion = report.perEventCount
    .map((count, e) => (count === report.subscribers ? report.perEventLastUs[e]! / 1000 : Infinity))
    .filter((_, e) => !report.cancelled.includes(e));
  return {
    events: report.events,
    eventsNotPublished: report.cancelled.length,
    expected,
    received: report.received,
    lost: expected - report.received,
    duplicates: report.duplicates,
    droppedConnections: report.dropped,
    publishErrors: failures.count,
    publishErrorSamples: [...failures.samples],
    complete,
    latencyMs: {
      p50: roundOrNull(quantileMs(report.histogram, expected, 0.5)),
      p99: roundOrNull(quantileMs(report.histogram, expected, 0.99)),
      max: report.received === expected ? round(report.maxLatencyUs / 1000) : null,
    },
    completionMs: percentilesOf(completion),
    histogram: report.histogram,
  };
}

export interface ScenarioContext {
  layout: CpuLayout;
  log(line: string): void;
  start(options: StartOptions): Promise<FanoutServer>;
}

/** Runs one scenario; failures are reported in the result, never thrown. */
export async function runScenario(target: TargetName, subscribers: number, context: ScenarioContext): Promise<ScenarioResult> {
  const { log, layout } = context;
  const config = fanoutConfig;
  const result: ScenarioResult = { target, subscribers };
  let server: FanoutServer | undefined;
  let pool: SubscriberPool | undefined;
  const inFlight: Promise<unknown>[] = [];
  let seq = 0;
  try {
    server = await context.start({
      serverCpus: layout.serverCpus,
      openFiles: subscribers + 2_048,
      maxPublishers: Math.max(config.burstConcurrency, config.steadyRate * 2),
      log,
    });
    result.description = server.description;
    result.version = server.version;
    const active = server;
    const serverPid = server.pid;

    // A few publishes with nobody listening warm the publish path before the memory baseline.
    for (let i = 0; i < 5; i++) await active.publish(++seq, nowMicros());
    await sleep(500);
    const beforeMiB = treeRssMiB(serverPid);

    pool = SubscriberPool.start(config.workers, subscribers, layout);
    result.clockUncertaintyMs = round((await pool.alignClocks()) / 1000, 3);
    log(`${target}: connecting ${subscribers.toLocaleString("en")} subscribers`);
    result.connect = await pool.connect(active.subscribe, subscribers, config.connectConcurrency, config.connectDeadlineSeconds * 1000);
    result.connect.seconds = round(result.connect.seconds);
    log(
      `${target}: ${result.connect.open} open, ${result.connect.failed} failed in ${result.connect.seconds} s${result.connect.errors.length ? ` (${result.connect.errors.slice(0, 3).join("; ")})` : ""}`,
    );
    if (result.connect.open === 0) throw new Error("no subscriber could connect");

    // Readiness proven by delivery (see config.barrierEvents).
    const barrierFirst = seq + 1;
    await pool.startPhase(barrierFirst, config.barrierEvents);
    let barrierComplete = false;
    let published = 0;
    while (!barrierComplete && published < config.barrierEvents) {
      published++;
      await active.publish(++seq, nowMicros());
      barrierComplete = await pool.waitPhase("any", config.barrierIntervalMs);
    }
    seq = barrierFirst + config.barrierEvents - 1;
    if (!barrierComplete) log(`${target}: not every subscriber received a barrier event; measuring anyway`);
    // Opens the publisher's connections before the burst, so the burst does not time connection
    // set-up; waiting for every delivery means the server has no backlog when the burst starts.
    const warmFirst = seq + 1;
    seq += config.burstConcurrency;
    await pool.startPhase(warmFirst, config.burstConcurrency);
    await inLanes(config.burstConcurrency, config.burstConcurrency, (i) => active.publish(warmFirst + i, nowMicros()));
    const warmComplete = await pool.waitPhase("all", config.burstDeadlineSeconds * 1000);
    result.barrier = { published, complete: barrierComplete, warmUpEvents: config.burstConcurrency, warmUpComplete: warmComplete };
    if (!warmComplete) log(`${target}: the warm-up events were not all delivered within ${config.burstDeadlineSeconds} s; measuring anyway`);
    await sleep(1_000);
    const connectedMiB = treeRssMiB(serverPid);
    result.memory = {
      beforeMiB: round(beforeMiB, 1),
      connectedMiB: round(connectedMiB, 1),
      perConnectionKiB: round(((connectedMiB - beforeMiB) * 1024) / result.connect.open, 1),
      afterSteadyMiB: 0,
      peakMiB: 0,
    };

    // Burst: every event at once; the figure is when the last subscriber has the last event.
    const burstFirst = seq + 1;
    seq += config.burstEvents;
    await pool.startPhase(burstFirst, config.burstEvents);
    log(`${target}: burst of ${config.burstEvents} events`);
    const burstStart = nowMicros();
    const burstFailures = new PublishFailures(pool);
    inFlight.push(
      inLanes(config.burstEvents, config.burstConcurrency, (i) =>
        active.publish(burstFirst + i, burstStart).catch((error: unknown) => burstFailures.record(burstFirst + i, error)),
      ),
    );
    const burstComplete = await pool.waitPhase("all", config.burstDeadlineSeconds * 1000);
    const burstReport = await pool.report();
    const burst = phaseResult(burstReport, burstComplete, burstFailures);
    const completionTimeMs = burstComplete ? round(burstReport.maxLatencyUs / 1000) : null;
    result.burst = {
      ...burst,
      completionTimeMs,
      deliveriesPerSecond: completionTimeMs ? Math.round(burst.received / (completionTimeMs / 1000)) : null,
    };
    log(
      `${target}: burst ${burstComplete ? `complete in ${completionTimeMs} ms` : `INCOMPLETE after ${config.burstDeadlineSeconds} s (${burst.lost} deliveries missing)`}${failureNote(burst)}`,
    );
    await sleep(1_000);

    // Steady: the issue's load, open loop (publishes are not held back by slow replies).
    const events = config.steadyRate * config.steadySeconds;
    const steadyFirst = seq + 1;
    seq += events;
    await pool.startPhase(steadyFirst, events);
    log(`${target}: steady ${config.steadyRate} events/s for ${config.steadySeconds} s`);
    const intervalUs = 1e6 / config.steadyRate;
    const lags: number[] = [];
    const roundTrips: number[] = [];
    const steadyFailures = new PublishFailures(pool);
    const serverPids = processTree(serverPid);
    const cpuBefore = {
      server: treeCpuSeconds(serverPids),
      subscribers: treeCpuSeconds(pool.pids),
      publisher: process.cpuUsage(),
      machine: machineBusySeconds(),
    };
    const steadyStart = nowMicros() + 20_000;
    for (let i = 0; i < events; i++) {
      const due = steadyStart + i * intervalUs;
      const wait = (due - nowMicros()) / 1000;
      if (wait >= 1) await sleep(wait);
      const sent = nowMicros();
      lags.push(Math.max(0, sent - due) / 1000);
      inFlight.push(
        active.publish(steadyFirst + i, sent).then(
          () => roundTrips.push((nowMicros() - sent) / 1000),
          (error: unknown) => steadyFailures.record(steadyFirst + i, error),
        ),
      );
    }
    const steadyComplete = await pool.waitPhase("all", config.steadyDrainSeconds * 1000);
    const wallSeconds = (nowMicros() - steadyStart) / 1e6;
    const cpuAfter = {
      server: treeCpuSeconds(serverPids),
      subscribers: treeCpuSeconds(pool.pids),
      publisher: process.cpuUsage(cpuBefore.publisher),
      machine: machineBusySeconds(),
    };
    const steadyReport = await pool.report();
    const perCore = (seconds: number) => round(seconds / wallSeconds);
    const cpu = {
      server: perCore(cpuAfter.server - cpuBefore.server),
      subscribers: perCore(cpuAfter.subscribers - cpuBefore.subscribers),
      publisher: perCore((cpuAfter.publisher.user + cpuAfter.publisher.system) / 1e6),
      other: 0,
    };
    cpu.other = Math.max(0, round(perCore(cpuAfter.machine - cpuBefore.machine) - cpu.server - cpu.subscribers - cpu.publisher));
    result.steady = {
      ...phaseResult(steadyReport, steadyComplete, steadyFailures),
      rate: config.steadyRate,
      seconds: config.steadySeconds,
      publishLagMs: percentilesOf(lags),
      publishRoundTripMs: percentilesOf(roundTrips),
      wallSeconds: round(wallSeconds),
      deliveriesPerSecond: Math.round(steadyReport.received / wallSeconds),
      cpu,
    };
    result.memory.afterSteadyMiB = round(treeRssMiB(serverPid), 1);
    result.memory.peakMiB = round(treePeakRssMiB(serverPid), 1);
    const s = result.steady;
    log(
      `${target}: steady ${steadyComplete ? "complete" : `INCOMPLETE (${s.lost} deliveries missing after ${config.steadyDrainSeconds} s of drain)`}; ` +
        `p50 ${s.latencyMs.p50 ?? "-"} ms, p99 ${s.latencyMs.p99 ?? "-"} ms; server ${cpu.server} cores, subscribers ${cpu.subscribers} cores${failureNote(s)}`,
    );
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    log(`${target} with ${subscribers} subscribers FAILED: ${result.error}`);
  } finally {
    await pool?.close().catch(() => undefined);
    // Stopping the server also aborts the publishes still in flight, so this cannot hang.
    await server?.stop().catch((error: unknown) => log(`${target}: stopping failed: ${String(error)}`));
    await Promise.allSettled(inFlight);
  }
  return result;
}
