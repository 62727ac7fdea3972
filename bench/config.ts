// Sizes of the benchmark. Fixed (not time-based) so runs compare like for like; chosen to keep
// both providers together under ~6 minutes on a 2-core machine.
const full = {
  /** Measured operations per publish scenario, after `warmupOps` unmeasured ones. */
  publishOps: 2_000,
  warmupOps: 50,
  /** Requests (or pg transactions) in flight at once; raw better-sqlite3 is synchronous. */
  concurrency: 8,

  listRows: 100_000,
  /** The deep page starts after this many rows (reached by walking the cursor chain). */
  deepPosition: 90_000,
  walkPageSize: 100,
  listPageSize: 20,
  latencySamples: 200,
  latencyWarmup: 20,
  /** markNotificationsSeen: ids per call, and sequential calls measured after the warm-up ones. */
  seenBatch: 50,
  seenSamples: 40,
  seenWarmup: 5,

  /**
   * Goals against the framework floor (a bare graphql-yoga server with the raw driver):
   * Herald publish ops/s at least 0.8 of the floor's (the storage floor's goal; it was 0.5 before
   * the floor was rebuilt), list p50 at most twice the floor's (floor/Herald >= 0.5), and a 50-id
   * markNotificationsSeen at most 25 ms at p50.
   */
  goals: { publishOverFloor: 0.8, listFloorOverHerald: 0.5, seenP50Ms: 25 },

  /** Only local PostgreSQL; each run gets its own schema, dropped at the end. */
  postgresUrl: "postgresql://root@127.0.0.1:5432/test",
  serverStartTimeoutMs: 60_000,
  cliTimeoutMs: 120_000,
  /** A run normally takes 3-4 minutes; past this something hangs and the run is abandoned. */
  hardLimitMinutes: 15,
} as const;

/**
 * `--smoke`: tiny sizes that prove every step of a run works (seconds, not minutes), e.g. after
 * a change to the benchmark itself. Its figures mean nothing and go to results/smoke.json.
 */
export const smoke = process.argv.includes("--smoke");
const tiny = { publishOps: 20, warmupOps: 5, listRows: 500, deepPosition: 300, latencySamples: 10, latencyWarmup: 2, seenSamples: 2, seenWarmup: 0 } as const;

/**
 * `STORE_BENCH_SCALE=0.1`: a fraction of the full sizes (operations, rows, samples), for a machine
 * too busy to finish a full run within the hard limit. Ratios stay comparable within one run.
 */
const scale = Number(process.env.STORE_BENCH_SCALE ?? "1");
const scaled =
  scale > 0 && scale < 1
    ? {
        publishOps: Math.max(100, Math.round(full.publishOps * scale)),
        listRows: Math.max(5_000, Math.round(full.listRows * scale)),
        deepPosition: Math.max(4_500, Math.round(full.deepPosition * scale)),
        latencySamples: Math.max(30, Math.round(full.latencySamples * scale)),
        seenSamples: Math.max(20, Math.round(full.seenSamples * scale)),
      }
    : {};

export const benchConfig = { ...full, ...scaled, ...(smoke ? tiny : {}) };

export type ProviderName = "sqlite" | "postgresql";
