// Load shapes: a fixed number of operations with a fixed number in flight (throughput), and
// one-at-a-time requests (latency). Counts, not durations, bound every loop.
import { performance } from "node:perf_hooks";

export interface Percentiles {
  samples: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
  minMs: number;
  maxMs: number;
}

export interface Throughput {
  ops: number;
  concurrency: number;
  succeeded: number;
  failed: number;
  firstError: string | null;
  seconds: number;
  /** Successful operations per second of wall time. */
  opsPerSec: number;
  latency: Percentiles;
}

export function percentiles(durations: number[]): Percentiles {
  const sorted = [...durations].sort((a, b) => a - b);
  // Nearest rank: the value below which p% of the samples fall, always an observed sample.
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    samples: sorted.length,
    p50Ms: round(rank(50)),
    p95Ms: round(rank(95)),
    meanMs: round(sorted.length ? sum / sorted.length : NaN),
    minMs: round(sorted[0] ?? NaN),
    maxMs: round(sorted[sorted.length - 1] ?? NaN),
  };
}

/**
 * Runs op(0..count-1) with `concurrency` workers pulling the next index. Failures are counted
 * rather than thrown, so one conflict does not hide the throughput of the rest.
 */
export async function runConcurrent(count: number, concurrency: number, op: (i: number) => Promise<unknown>): Promise<Throughput> {
  let next = 0;
  let failed = 0;
  let firstError: string | null = null;
  const durations: number[] = [];
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const started = performance.now();
      try {
        await op(i);
        durations.push(performance.now() - started);
      } catch (error) {
        failed++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  const seconds = (performance.now() - started) / 1000;
  const succeeded = count - failed;
  return {
    ops: count,
    concurrency,
    succeeded,
    failed,
    firstError,
    seconds: round(seconds, 3),
    opsPerSec: round(succeeded / seconds, 1),
    latency: percentiles(durations),
  };
}

/** Sequential latency: `warmup` unmeasured calls, then `samples` timed ones. */
export async function sampleLatency(samples: number, warmup: number, op: () => Promise<unknown>): Promise<Percentiles> {
  for (let i = 0; i < warmup; i++) await op();
  const durations: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await op();
    durations.push(performance.now() - started);
  }
  return percentiles(durations);
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
