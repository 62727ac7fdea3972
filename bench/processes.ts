// Child processes of the benchmarks: every server, CLI and subscriber process is started here, so
// that one place can pin them to CPUs, give them enough file descriptors, and kill whatever is
// left when the run ends or is interrupted.
import { type ChildProcess, execFileSync, spawn, type StdioOptions } from "node:child_process";
import { exited } from "@herald/testkit";
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { processTree } from "./fanout/proc-stats.ts";

/**
 * Where processes run. With 2 cores the servers get core 0 and the load generator core 1, so each
 * server has the same CPU budget and cannot take the subscribers' CPU (or they its).
 */
export interface CpuLayout {
  pinned: boolean;
  serverCpus: string;
  clientCpus: string;
  description: string;
}

export function cpuLayout(wantPinning: boolean): CpuLayout {
  const count = cpus().length;
  const taskset = existsSync("/usr/bin/taskset") || existsSync("/bin/taskset");
  if (!wantPinning || !taskset || count < 2) {
    const why = !wantPinning ? "pinning turned off" : !taskset ? "taskset not found" : "fewer than 2 CPUs";
    return { pinned: false, serverCpus: "", clientCpus: "", description: `not pinned (${why}): servers and subscribers share all ${count} CPUs` };
  }
  const half = Math.floor(count / 2);
  const serverCpus = half === 1 ? "0" : `0-${half - 1}`;
  const clientCpus = half === count - 1 ? String(half) : `${half}-${count - 1}`;
  return { pinned: true, serverCpus, clientCpus, description: `servers on CPU ${serverCpus}, subscribers and publisher on CPU ${clientCpus}` };
}

/** Moves this (publishing) process onto the load generator's CPUs, all threads included. */
export function pinSelf(layout: CpuLayout): void {
  if (layout.pinned) execFileSync("taskset", ["-a", "-p", "-c", layout.clientCpus, String(process.pid)], { stdio: "ignore" });
}

/** The soft limit on open files this process (and so its children) starts with. */
export function openFileLimit(): number {
  return Number(execFileSync("bash", ["-c", "ulimit -Sn"], { encoding: "utf8" }).trim());
}

const children = new Set<ChildProcess>();

export interface SpawnOptions {
  cpus?: string;
  /** Open files the process needs; the limit is raised (through bash's ulimit) when it is lower. */
  openFiles?: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  stdio?: StdioOptions;
}

/**
 * Starts a process through `bash -c 'ulimit …; exec …'` and `taskset` as needed. Both exec, so the
 * returned child's pid is the program's own (its /proc entries are the ones measured).
 */
export function spawnTracked(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  let argv = [command, ...args];
  if (options.cpus) argv = ["taskset", "-c", options.cpus, ...argv];
  if (options.openFiles && openFileLimit() < options.openFiles) {
    // The hard limit may be raised only by root; otherwise take whatever the hard limit allows.
    const script = `ulimit -n ${options.openFiles} 2>/dev/null || ulimit -Sn "$(ulimit -Hn)"; exec "$@"`;
    argv = ["bash", "-c", script, "bash", ...argv];
  }
  const child = spawn(argv[0]!, argv.slice(1), { env: options.env ?? process.env, cwd: options.cwd, stdio: options.stdio ?? ["ignore", "pipe", "pipe"] });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/**
 * Last resort when the benchmark is interrupted or overruns: nothing it started may outlive it.
 * Whole trees, because nginx's worker does not die with a killed master.
 */
export function killAllChildren(): void {
  for (const child of children) {
    if (exited(child) || !child.pid) continue;
    for (const pid of processTree(child.pid).reverse()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
}
