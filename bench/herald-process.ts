// Herald as an operator runs it: credentials from the CLI, then `herald serve` in its own
// process, so the server and the load generator do not share an event loop.
import { heraldCli, type HeraldCli, type Spawn, spawnHerald } from "@herald/testkit";
import { benchConfig } from "./config.ts";
import { spawnTracked } from "./processes.ts";

/** Every herald process of a run is tracked, so an interrupted run kills it too (killAllChildren). */
const tracked: Spawn = (command, args, env) => spawnTracked(command, args, { env });

/** The `herald` CLI against one store, its processes tracked. */
export function benchCli(databaseUrl: string): HeraldCli {
  return heraldCli({ DATABASE_URL: databaseUrl }, { spawn: tracked, timeoutMs: benchConfig.cliTimeoutMs });
}

export interface Credentials {
  /** The person whose list is measured, and their token. */
  reader: { id: string; token: string };
  /** The addressee of the publish scenarios, kept apart so the list holds exactly the seeded rows. */
  addresseeId: string;
  producerKey: string;
}

export async function createCredentials(databaseUrl: string): Promise<Credentials> {
  // One at a time: each command applies migrations first, and the first one creates the schema.
  const cli = benchCli(databaseUrl);
  const reader = await cli.createPerson("Bench reader");
  const addressee = await cli.createPerson("Bench addressee");
  const producerKey = await cli.createProducerKey("bench");
  return { reader, addresseeId: addressee.id, producerKey };
}

/** The per-credential limits are lifted: a load generator is one credential doing the work of many. */
export const liftedLimits = { HERALD_RATE_LIMIT_POINTS: "1000000000", HERALD_MAX_STREAMS_PER_CREDENTIAL: "1000000" };

export interface RunningHerald {
  url: URL;
  stop(): Promise<void>;
}

/** `env`: further settings for this server (e.g. HERALD_ASSET_DIR). */
export async function startHerald(databaseUrl: string, env: Record<string, string> = {}): Promise<RunningHerald> {
  const herald = await spawnHerald({
    env: { DATABASE_URL: databaseUrl, ...liftedLimits, ...env },
    spawn: tracked,
    // STORE_BENCH_HERALD_NODE_ARGS: extra node flags for the server only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p"
    nodeArgs: (process.env.STORE_BENCH_HERALD_NODE_ARGS ?? "").split(" ").filter(Boolean),
    startTimeoutMs: benchConfig.serverStartTimeoutMs,
    // Keep warnings visible (LOG_LEVEL=warn) without flooding the report.
    onOutput: (text, stream) => stream === "stderr" && process.stderr.write(`    [herald] ${text}`),
  });
  return { url: new URL(herald.url), stop: () => herald.stop() };
}
