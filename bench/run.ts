// `npm run bench`: Herald against its raw database drivers, on SQLite and on PostgreSQL.
// Prints a table and writes every figure to bench/results/latest.json. Not part of the tests.
// `npm run bench:store -- sqlite` (or postgresql) runs one provider only; `-- --smoke` uses tiny sizes.
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { benchConfig, type ProviderName, smoke } from "./config.ts";
import { type BenchDatabase, createPostgresDatabase, createSqliteDatabase } from "./databases.ts";
import { describeEnvironment } from "./environment.ts";
import { GraphQLClient } from "./graphql-client.ts";
import { createCredentials, type RunningHerald, startHerald } from "./herald-process.ts";
import { benchList } from "./list.ts";
import { type RunningBare, startBare } from "./bare-process.ts";
import { benchSeen } from "./seen.ts";
import { benchNewKeys, benchSameKey } from "./publish.ts";
import { killAllChildren } from "./processes.ts";
import type { RawDriver } from "./raw-driver.ts";
import { type ProviderResult, renderTables, writeJson } from "./report.ts";

const resultsFile = fileURLToPath(new URL(smoke ? "./results/smoke.json" : "./results/latest.json", import.meta.url));
const allProviders: ProviderName[] = ["sqlite", "postgresql"];
const started = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}`);

// Databases still to drop if the run is interrupted or overruns.
const pendingDrops = new Set<() => Promise<void>>();
const abort = (code: number) => {
  killAllChildren();
  void Promise.allSettled([...pendingDrops].map((drop) => drop())).then(() => process.exit(code));
};
process.once("SIGINT", () => abort(130));
process.once("SIGTERM", () => abort(143));
setTimeout(() => {
  console.error(`The benchmark exceeded ${benchConfig.hardLimitMinutes} minutes; stopping.`);
  abort(1);
}, benchConfig.hardLimitMinutes * 60_000).unref();

async function runProvider(provider: ProviderName): Promise<ProviderResult> {
  let db: BenchDatabase;
  try {
    db = provider === "sqlite" ? await createSqliteDatabase() : await createPostgresDatabase();
  } catch (error) {
    // E.g. PostgreSQL not running: report it and go on with the other provider.
    const message = `cannot create the database: ${error instanceof Error ? error.message : String(error)}`;
    log(`${provider} FAILED: ${message}`);
    return { provider, database: "none", databaseVersion: "unknown", error: message };
  }
  pendingDrops.add(db.drop);
  const result: ProviderResult = { provider, database: db.location, databaseVersion: "unknown" };
  let herald: RunningHerald | undefined;
  let bareServer: RunningBare | undefined;
  let raw: RawDriver | undefined;
  const clients: GraphQLClient[] = [];
  try {
    log(`== ${provider}: ${db.location}`);
    log("Creating a reader, an addressee and a producer key with the herald CLI");
    const credentials = await createCredentials(db.url);
    herald = await startHerald(db.url);
    log(`Herald serving at ${herald.url.href}`);
    bareServer = await startBare({ ...db.bareEnv, BARE_READER_ID: credentials.reader.id });
    log(`Bare graphql-yoga floor serving at ${bareServer.url.href}`);
    raw = db.openRaw();
    result.databaseVersion = await raw.databaseVersion();
    const producer = new GraphQLClient(herald.url, credentials.producerKey);
    const reader = new GraphQLClient(herald.url, credentials.reader.token);
    const bare = new GraphQLClient(bareServer.url, "none");
    clients.push(producer, reader, bare);

    const context = { producer, bare, raw, addresseeId: credentials.addresseeId, log };
    const newKeys = await benchNewKeys(context);
    const sameKey = await benchSameKey(context);
    result.publish = { newKeys, sameKey };
    const list = await benchList({ reader, bare, raw, readerId: credentials.reader.id, log });
    result.list = list.result;
    result.seen = await benchSeen({ reader, bare, unseenIds: list.walkedIds, log });
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    log(`${provider} FAILED: ${result.error}`);
  } finally {
    for (const client of clients) client.close();
    await raw?.close().catch(() => undefined);
    await herald?.stop();
    await bareServer?.stop();
    await db.drop().catch((error: unknown) => log(`${provider}: could not remove ${db.location}: ${String(error)}`));
    pendingDrops.delete(db.drop);
    log(`${provider}: server stopped, database removed`);
  }
  return result;
}

function checksPassed(r: ProviderResult): boolean {
  if (r.error || !r.publish || !r.list || !r.seen) return false;
  const revisions = r.publish.sameKey.revisionCheck;
  return Boolean(revisions?.herald.ok && revisions.bare.ok && revisions.raw.ok && r.list.firstPage.sameRows && r.list.deepPage.sameRows && r.seen.allChanged);
}

const requested = process.argv.slice(2).filter((a): a is ProviderName => (allProviders as string[]).includes(a));
const providers = requested.length > 0 ? requested : allProviders;
const startedAt = new Date().toISOString();
const environment = describeEnvironment();
log(`Herald benchmark: ${providers.join(", ")} on ${environment.cpus} CPUs (${environment.cpuModel}), Node ${environment.node}`);

const results: ProviderResult[] = [];
for (const provider of providers) results.push(await runProvider(provider));

const durationSeconds = Math.round((performance.now() - started) / 100) / 10;
writeJson(resultsFile, { startedAt, durationSeconds, environment, config: benchConfig, results });
console.log(`\n${renderTables(results, benchConfig)}\n`);
log(`Done in ${durationSeconds} s; all figures in ${resultsFile}`);
if (!results.every(checksPassed)) {
  console.error("Some scenario failed or a consistency check did not hold (see above).");
  process.exitCode = 1;
}
