// Where a result came from: without the machine, versions and commit, numbers cannot be compared.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const repository = fileURLToPath(new URL("..", import.meta.url));

/** The installed version of a package (not the range in package.json). */
export function packageVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

export function describeEnvironment() {
  const git = (args: string[]) => {
    try {
      return execFileSync("git", args, { cwd: repository, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    } catch {
      return null;
    }
  };
  const dirty = git(["status", "--porcelain", "--", "server/src", "prisma"]);
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    gitCommit: git(["rev-parse", "--short", "HEAD"]),
    /** Uncommitted changes under server/src or prisma/ at run time. */
    sourceDirty: dirty === null ? null : dirty !== "",
    packages: {
      prisma: packageVersion("@prisma/client"),
      "better-sqlite3": packageVersion("better-sqlite3"),
      pg: packageVersion("pg"),
      "graphql-yoga": packageVersion("graphql-yoga"),
    },
  };
}
