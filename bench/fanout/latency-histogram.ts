// Latencies are kept as a log-scale histogram (1% wide buckets), not as raw samples: 5,000
// subscribers x 1,000 events would be 5 million samples per scenario, and histograms from several
// subscriber processes merge by adding. 1% is far finer than the run-to-run noise.
const growth = 1.01;
const logGrowth = Math.log(growth);
/** 1.01^2400 us is about 6 hours: nothing measured here comes near it. */
export const bucketCount = 2_400;

export function bucketOf(micros: number): number {
  return micros <= 1 ? 0 : Math.min(bucketCount - 1, Math.floor(Math.log(micros) / logGrowth));
}

/** The middle of a bucket (geometric), in microseconds. */
export function bucketMicros(bucket: number): number {
  return Math.pow(growth, bucket + 0.5);
}

/** Sparse form for IPC and JSON: [bucket, count] pairs. */
export type SparseHistogram = [number, number][];

export function toSparse(counts: Float64Array): SparseHistogram {
  const pairs: SparseHistogram = [];
  for (let i = 0; i < counts.length; i++) if (counts[i]! > 0) pairs.push([i, counts[i]!]);
  return pairs;
}

export function mergeSparse(parts: SparseHistogram[]): SparseHistogram {
  const counts = new Float64Array(bucketCount);
  for (const part of parts) for (const [bucket, count] of part) counts[bucket]! += count;
  return toSparse(counts);
}

/**
 * The q-quantile in milliseconds over `expected` deliveries, of which the histogram holds the ones
 * that arrived. A delivery that never arrived counts as infinitely late, so when more than
 * (1 - q) of them are missing the quantile does not exist: null.
 */
export function quantileMs(histogram: SparseHistogram, expected: number, q: number): number | null {
  if (expected <= 0) return null;
  const rank = Math.ceil(q * expected);
  let seen = 0;
  for (const [bucket, count] of histogram) {
    seen += count;
    if (seen >= rank) return bucketMicros(bucket) / 1000;
  }
  return null;
}

/** The same for plain values (per-event completion times); Infinity marks "never complete". */
export function quantileOf(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return Number.isFinite(value) ? value : null;
}
