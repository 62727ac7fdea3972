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
const tiny = { publishOps: 20, warmupOps: 5, listRows: 500, deepPosition: 300, latencySamples: 10, latencyWarmup: 2 } as const;

export const benchConfig = { ...full, ...(smoke ? tiny : {}) };

export type ProviderName = "sqlite" | "postgresql";
