// `npm run build`: compiles src/ into dist/ with tsc (tsconfig.build.json, emitting without a type
// check: that is `npm run typecheck`), only when a source or
// a compiler setting is newer than the last build, so callers (npm start, the test kit, turbo) can
// ask for a build every time. `--force` builds regardless. Two callers at once take turns.
// GraphiQL's assets (scripts/build-graphiql.mjs, from graphiql/) are built with it.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { buildGraphiQL, graphiqlOut } from "./build-graphiql.mjs";

const server = join(import.meta.dirname, "..");
const dist = join(server, "dist");
const stamp = join(dist, ".built");
const lock = join(server, ".build-lock");
const inputs = ["src", "graphiql", "scripts/build-graphiql.mjs", "tsconfig.json", "tsconfig.build.json", "../tsconfig.json", "package.json"].map((p) =>
  join(server, p),
);
// A build that died holding the lock left it behind; no real build takes this long.
const STALE_LOCK_MS = 10 * 60_000;

/** The newest modification under `path`; a folder counts too (a deleted or renamed file changes it). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const fresh = () => existsSync(stamp) && existsSync(join(graphiqlOut, "manifest.json")) && statSync(stamp).mtimeMs >= Math.max(...inputs.map(newest));

function takeLock() {
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch {
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
}

const force = process.argv.includes("--force");
if (force || !fresh()) {
  takeLock();
  try {
    // Another caller may have built while this one waited.
    if (force || !fresh()) {
      const started = new Date();
      const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
      // tsc and GraphiQL's bundle do not depend on each other: they build at once (a first start
      // builds the dashboard beside them too, so every core has work). The build only emits
      // (--noCheck: half of tsc's time); checking the types is `npm run typecheck`'s work, which CI
      // runs before the tests.
      const compiled = new Promise((resolve) =>
        spawn(process.execPath, [tsc, "-p", join(server, "tsconfig.build.json"), "--noCheck"], { cwd: server, stdio: "inherit" }).on("close", resolve),
      );
      const graphiql = buildGraphiQL().then(
        () => null,
        (error) => error,
      );
      const [status, graphiqlError] = await Promise.all([compiled, graphiql]);
      if (status !== 0) {
        rmSync(stamp, { force: true });
        console.error("herald: the build failed (tsc -p server/tsconfig.build.json)");
        process.exit(status ?? 1);
      }
      if (graphiqlError) {
        rmSync(stamp, { force: true });
        console.error(`herald: the build of GraphiQL's assets failed (scripts/build-graphiql.mjs): ${graphiqlError}`);
        process.exit(1);
      }
      // Dated when the build began: a source saved during the build makes the next call build again.
      writeFileSync(stamp, "");
      utimesSync(stamp, started, started);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
