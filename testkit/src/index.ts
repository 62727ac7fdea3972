// @herald/testkit: what every suite, benchmark and the start script share. Nothing here knows a
// suite's assertions; it starts things, waits for them and cleans up after them.
export { ensureHeraldBuilt } from "./build.ts";
export {
  CliError,
  type CliResult,
  type CreatedPerson,
  type Env,
  heraldBin,
  heraldCli,
  type HeraldCli,
  heraldEnv,
  heraldNodeFlags,
  type Spawn,
  spawnHerald,
  type SpawnedHerald,
  type SpawnHeraldOptions,
} from "./herald.ts";
export { freePort } from "./ports.ts";
export { exited, stopProcess, waitForHttp } from "./processes.ts";
export { type PrivateRedis, startRedis } from "./redis.ts";
export { createTempDir, createTempSqlite, removeAllTempDirs, type TempDir, type TempSqlite } from "./temp-dirs.ts";
export { type Received, untilMarker } from "./marker.ts";
export { eventually, sleep } from "./wait.ts";
export { holdSqliteWriteLock, type SqliteLockHolder } from "./sqlite-lock.ts";
