// Real processes for tests: `herald` commands and servers, and a private Redis server. The
// machinery is @herald/testkit's; these names stay for the suites written against them.
import type { ChildProcess } from "node:child_process";
import { heraldCli, type SpawnedHerald, spawnHerald, stopProcess } from "@herald/testkit";

export { freePort, heraldBin, startRedis } from "@herald/testkit";

export function heraldCommand(args: string[], env: Record<string, string>) {
  return heraldCli(env).run(...args);
}

export type Served = SpawnedHerald;

/** Starts `herald serve` on a free port and resolves once it serves. */
export function serve(env: Record<string, string>): Promise<Served> {
  return spawnHerald({ env });
}

export function stop(served: { process: ChildProcess }, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  return stopProcess(served.process, signal);
}
