// The fan-out benchmark: Herald, a bare node:http SSE broadcaster and nginx+nchan, each holding
// 1,000 and then 5,000 subscribers while events are published in a burst and at a steady rate.
// Prints a table per size and writes every figure to bench/results/fanout.json. Not a test.
//
//   node --import tsx bench/fanout/run.ts [--sizes 1000,5000] [--targets herald,bare,nchan] [--no-pin]
import { execFileSync } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startBare } from "./bare-server.ts";
import { allTargets, fanoutConfig, type TargetName } from "./config.ts";
import type { FanoutServer, StartOptions } from "./fanout-server.ts";
import { startHerald } from "./herald-server.ts";
import { ensureNchan, startNchan } from "./nchan-server.ts";
import { cpuLayout, killAllChildren, openFileLimit, pinSelf } from "../processes.ts";
import { loadAverage, waitForQuiet } from "./proc-stats.ts";
import { renderTables, renderTargets, writeJson } from "./report.ts";
import { runScenario, type ScenarioResult } from "./scenario.ts";
import { removeAllTempDirs } from "@herald/testkit";

const resultsFile = fileURLToPath(new URL("../results/fanout.json", import.meta.url));
const started = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}`);

const { values: args } = parseArgs({
  options: {
    sizes: { type: "string" },
    targets: { type: "string" },
    "no-pin": { type: "boolean", default: false },
  },
});
const sizes = args.sizes ? args.sizes.split(",").map((s) => Number(s.trim())) : [...fanoutConfig.sizes];
const targets = (args.targets ? args.targets.split(",").map((s) => s.trim()) : allTargets) as TargetName[];
for (const size of sizes) if (!Number.isInteger(size) || size < 1 || size > 20_000) throw new Error(`--sizes: ${size} is not between 1 and 20,000`);
for (const target of targets) if (!allTargets.includes(target)) throw new Error(`--targets: unknown ${target} (known: ${allTargets.join(", ")})`);

// Servers and subscriber processes must never outlive the run, whatever ends it.
const cleanUp = () => {
  killAllChildren();
  removeAllTempDirs();
};
const abort = (code: number) => {
  cleanUp();
  process.exit(code);
};
process.once("SIGINT", () => abort(130));
process.once("SIGTERM", () => abort(143));
process.once("exit", cleanUp);
setTimeout(() => {
  console.error(`The fan-out benchmark exceeded ${fanoutConfig.hardLimitMinutes} minutes; stopping.`);
  abort(1);
}, fanoutConfig.hardLimitMinutes * 60_000).unref();

function gitCommit(): string | null {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

const layout = cpuLayout(!args["no-pin"]);
pinSelf(layout);
const startedAt = new Date().toISOString();
const environment = {
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? "unknown",
  memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
  gitCommit: gitCommit(),
  openFileLimit: openFileLimit(),
  loadAverageAtStart: loadAverage(),
  cpuLayout: layout.description,
};
log(`Fan-out benchmark: ${targets.join(", ")} at ${sizes.join(", ")} subscribers; ${environment.cpus} CPUs (${environment.cpuModel}), Node ${process.version}`);
log(`CPU layout: ${layout.description}; load average ${environment.loadAverageAtStart}`);

const starters: Record<TargetName, (options: StartOptions) => Promise<FanoutServer>> = { herald: startHerald, bare: startBare, nchan: startNchan };
const skipped: Partial<Record<TargetName, string>> = {};
if (targets.includes("nchan")) {
  const reason = ensureNchan(log);
  if (reason) {
    skipped.nchan = reason;
    log(`Skipping nchan: ${reason}`);
  }
}

const results: ScenarioResult[] = [];
for (const size of sizes) {
  for (const target of targets) {
    if (skipped[target]) {
      results.push({ target, subscribers: size, error: `skipped: ${skipped[target]}` });
      continue;
    }
    const busy = await waitForQuiet(fanoutConfig.quietWaitSeconds);
    log(
      `== ${target}, ${size.toLocaleString("en")} subscribers (machine busy before start: ${busy} cores${busy >= 0.3 ? ", did not settle: figures will be noisy" : ""})`,
    );
    results.push(await runScenario(target, size, { layout, log, start: starters[target] }));
  }
}

const durationSeconds = Math.round((performance.now() - started) / 100) / 10;
const { verdicts } = renderTargets(results);
writeJson(resultsFile, {
  startedAt,
  durationSeconds,
  environment: { ...environment, loadAverageAtEnd: loadAverage() },
  config: fanoutConfig,
  skipped,
  targets: verdicts,
  results,
});
console.log(`\n${renderTables(results)}\n`);
log(`Done in ${durationSeconds} s; all figures in ${resultsFile}`);
if (results.some((r) => r.error && !r.error.startsWith("skipped"))) {
  console.error("Some scenario failed (see above).");
  process.exitCode = 1;
}
