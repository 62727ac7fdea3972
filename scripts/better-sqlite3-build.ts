// better-sqlite3 is no longer Herald's driver (storage/connection/sqlite-driver.ts) but stays a
// tool of development: the Prisma CLI's SQLite adapter (prisma/sqlite/prisma.config.ts, used by
// `npm run migration:new` and the tests of Prisma-migrated stores) and the benchmarks' raw floor
// (bench/raw-sqlite.ts). It compiles SQLite from source, about a minute on two cores, so `npm ci` does not run
// its install script (package.json, allowScripts) and whoever needs it builds it here, once.
// `node --import tsx scripts/better-sqlite3-build.ts` does it from a shell (for a script outside
// this repository that loads it from the server's install). `npm run build` does not: a deployment builds Herald and needs no compiler.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const root = join(import.meta.dirname, "..");

/** Where better-sqlite3 is installed (hoisted to the root by npm workspaces). */
function packageDir(): string {
  return dirname(createRequire(join(root, "package.json")).resolve("better-sqlite3/package.json"));
}

/** Builds better-sqlite3's native module unless it is built; says so on stderr, as it takes a while. */
export function ensureBetterSqlite3(): void {
  const dir = packageDir();
  if (existsSync(join(dir, "build", "Release", "better_sqlite3.node"))) return;
  process.stderr.write("Building better-sqlite3 (Prisma's SQLite adapter and the benchmarks' floor), once: about a minute…\n");
  // Its own release build, without the prebuilt download its install script tries first.
  const build = spawnSync("npm", ["run", "build-release", "--silent"], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (build.status !== 0) {
    process.stderr.write(`${build.stdout}${build.stderr}\nBuilding better-sqlite3 failed (exit code ${build.status}).\n`);
    process.exit(1);
  }
}

if (process.argv[1] === import.meta.filename) ensureBetterSqlite3();
