// Memory and CPU of other processes, read from /proc (Linux only), so the servers need no
// instrumentation of their own and all three are measured the same way.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { sleep } from "@herald/testkit";

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** The process and all its descendants (nginx: master and workers). */
export function processTree(pid: number): number[] {
  const result = [pid];
  for (let i = 0; i < result.length; i++) {
    const parent = result[i]!;
    for (const tid of safeReaddir(`/proc/${parent}/task`)) {
      const children = read(`/proc/${parent}/task/${tid}/children`);
      if (children) for (const child of children.trim().split(/\s+/).filter(Boolean)) result.push(Number(child));
    }
  }
  return result;
}

function safeReaddir(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

function statusKiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(read(`/proc/${pid}/status`) ?? "");
  return match ? Number(match[1]) : 0;
}

/** Resident memory of a process tree, MiB (VmRSS summed). */
export function treeRssMiB(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + statusKiB(p, "VmRSS"), 0) / 1024;
}

/** Peak resident memory of a process tree, MiB (VmHWM summed: an upper bound for several processes). */
export function treePeakRssMiB(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + statusKiB(p, "VmHWM"), 0) / 1024;
}

/** CPU seconds (user + system, all threads) a process tree has used so far. */
export function treeCpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const stat = read(`/proc/${pid}/stat`);
    if (!stat) continue;
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / ticksPerSecond;
}

/** CPU seconds the whole machine has been busy (not idle, not waiting for I/O). */
export function machineBusySeconds(): number {
  const line = (read("/proc/stat") ?? "").split("\n")[0] ?? "";
  const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / ticksPerSecond;
}

export function loadAverage(): number {
  return Number((read("/proc/loadavg") ?? "0").split(" ")[0]);
}

/**
 * Waits (at most `maxSeconds`) for a second in which the machine is nearly idle, so a scenario
 * does not start in the middle of someone else's build. Returns the busy cores last seen.
 */
export async function waitForQuiet(maxSeconds: number, idleBelowCores = 0.3): Promise<number> {
  const deadline = Date.now() + maxSeconds * 1000;
  for (;;) {
    const before = machineBusySeconds();
    await sleep(1_000);
    const busy = machineBusySeconds() - before;
    if (busy < idleBelowCores || Date.now() >= deadline) return Math.round(busy * 100) / 100;
  }
}
