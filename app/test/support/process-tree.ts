// Reading the process tree from /proc, for tests that check what `npm start` started and that it
// all ends: a stop must leave no process behind, whoever's child it was.
import { readdirSync, readFileSync } from "node:fs";

/** Every running process with its parent, read once from /proc. */
function processes(): { pid: number; parent: number }[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        // "pid (command) state ppid ...": the command may hold spaces and parentheses.
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        return [{ pid: Number(name), parent: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) }];
      } catch {
        return []; // gone meanwhile
      }
    });
}

/** The processes whose parent is `pid`, with their command lines. */
export function childrenOf(pid: number): { pid: number; cmdline: string }[] {
  return processes()
    .filter((p) => p.parent === pid)
    .flatMap((p) => {
      try {
        return [{ pid: p.pid, cmdline: readFileSync(`/proc/${p.pid}/cmdline`, "utf8").split("\0").join(" ") }];
      } catch {
        return []; // gone meanwhile
      }
    });
}

/** Every process under `pid` (children, their children, ...). */
export function descendantsOf(pid: number): number[] {
  const all = processes();
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const p of all) {
      if (p.parent !== parent) continue;
      found.push(p.pid);
      visit(p.pid);
    }
  };
  visit(pid);
  return found;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
