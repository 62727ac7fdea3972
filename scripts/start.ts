// `npm start`: Herald and its dashboard together on the embedded default store. Generates and
// builds what changed (quietly: their output is shown only when they fail), starts the server,
// then the dashboard, and prints one block saying where to go. SIGINT, SIGTERM or SIGHUP, sent to
// this process or to the npm in front of it, stops everything it started.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnHerald, waitForHttp } from "@herald/testkit";

const root = join(import.meta.dirname, "..");
const serverPort = process.env.PORT ?? "4000";
const appPort = process.env.APP_PORT ?? "5173";
const host = process.env.HOST ?? "127.0.0.1";
const dashboardUrl = `http://${host}:${appPort}`;
/** What the children get to stop by themselves before they are killed: the whole stop stays within 5 s. */
const STOP_GRACE_MS = 4_000;

interface Demo {
  personId: string;
  personToken: string;
  producerKey: string;
  signInUrl: string | null;
}

const children = new Set<ChildProcess>();
let stopping: Promise<never> | null = null;

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Stops every child (SIGTERM, then SIGKILL after the grace), then exits with `code`. Once. */
function stopAll(code: number): Promise<never> {
  stopping ??= (async () => {
    const all = [...children];
    for (const child of all) child.kill("SIGTERM");
    const grace = setTimeout(() => {
      for (const child of all) child.kill("SIGKILL");
    }, STOP_GRACE_MS);
    await Promise.all(all.map(exited));
    clearTimeout(grace);
    process.exit(code);
  })();
  return stopping;
}

function own(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void stopAll(0));

/**
 * npm passes SIGINT and SIGTERM on to the script, but a SIGHUP (or a SIGKILL) ends npm alone and
 * leaves its script running. The processes in front of this one (npm, and the shell it runs the
 * script in where that shell did not exec us) are watched: when one is gone, so is whoever started
 * us. The root package.json's `start` execs this script: a shell left in between would take npm's
 * SIGINT itself and wait for us (as shells do), so nothing would stop.
 */
function watchAncestors(): void {
  const chain: number[] = [];
  let pid = process.ppid;
  while (chain.length < 2 && pid > 1) {
    chain.push(pid);
    try {
      // /proc/<pid>/stat: "pid (command) state ppid ..."; the command may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      break; // no /proc (not Linux): the parent alone
    }
  }
  const alive = (p: number) => {
    try {
      process.kill(p, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  };
  setInterval(() => {
    if (!chain.every(alive) || process.ppid !== chain[0]) void stopAll(0);
  }, 250).unref();
}
watchAncestors();

/** Runs a preparation step with its output held back; shows it and stops when the step fails. */
async function quietly(what: string, command: string, args: string[]): Promise<void> {
  const child = own(
    spawn(command, args, {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1" },
    }),
  );
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  if (stopping) await stopping;
  if (code !== 0) {
    process.stderr.write(`${output}\n${what} failed (exit code ${code}).\n`);
    await stopAll(code ?? 1);
  }
}

const started = Date.now();
process.stdout.write("Preparing Herald (generating and building only what changed)…\n");
await quietly("Generating derived files", process.execPath, ["--import", "tsx", join(root, "scripts", "generate-when-changed.ts"), "--quiet"]);
await quietly("Building the server and the dashboard", "npx", [
  "turbo",
  "run",
  "build",
  "--filter=@herald/app...",
  "--filter=@herald/server",
  "--output-logs=errors-only",
]);

/** A child that ends by itself ends `npm start` too, saying so and failing (even on exit code 0). */
const onChildExit = (name: string) => (code: number | null, signal: NodeJS.Signals | null) => {
  if (stopping) return;
  console.error(`\n${name} stopped (${signal ? `signal ${signal}` : `exit code ${code}`}); stopping npm start.`);
  void stopAll(code ? code : 1);
};

let demo: Demo | null = null;
const server = await spawnHerald({
  // Not the test defaults: a person trying Herald gets the demo data and the server's own logs,
  // readable when they look at a terminal.
  env: {
    PORT: serverPort,
    HOST: host,
    HERALD_DASHBOARD_URL: dashboardUrl,
    NODE_ENV: process.env.NODE_ENV ?? "development",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
    HERALD_LOG_FORMAT: process.env.HERALD_LOG_FORMAT ?? (process.stderr.isTTY ? "pretty" : "json"),
  },
  // The server's own start lines are for `herald serve` run by hand: this block says it all once.
  onOutput: (text, stream) => {
    if (stream === "stderr") process.stderr.write(text);
    else demo ??= (JSON.parse(/^HERALD_READY (.*)$/m.exec(text)?.[1] ?? "{}") as { demo?: Demo }).demo ?? null;
  },
}).catch(async (error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  return stopAll(1);
});
own(server.process);
server.process.on("exit", onChildExit("The Herald server"));

const app = own(
  spawn(process.execPath, [join(root, "app", "build")], {
    cwd: root,
    env: { ...process.env, PORT: appPort, HOST: host, HERALD_URL: server.url, ORIGIN: dashboardUrl },
    // Its stdout says only "Listening on ...", which the block says better; errors go to stderr.
    stdio: ["ignore", "ignore", "inherit"],
  }),
);
app.on("exit", onChildExit("The dashboard"));
await waitForHttp(dashboardUrl, { child: app });

const seconds = ((Date.now() - started) / 1000).toFixed(1);
const lines = ["", `Herald is running (ready in ${seconds} s; Ctrl-C stops it)`, `  Dashboard:        ${dashboardUrl}`, `  GraphQL/GraphiQL: ${server.url}`];
if (demo) {
  const d: Demo = demo;
  lines.push(
    "  First start: a demo person and a producer key (shown only now)",
    `  Demo person:      ${d.personId}`,
    `  Person token:     ${d.personToken}`,
    `  Producer key:     ${d.producerKey}`,
    ...(d.signInUrl ? [`  Sign in (once):   ${d.signInUrl}`] : []),
    '  In GraphiQL, set the header {"Authorization": "Bearer <person token or producer key>"}.',
  );
} else {
  lines.push(`  Sign in:          npx herald signin <personId>  prints a one-time link (npx herald person create --name <you> makes a person)`);
}
console.log(`${lines.join("\n")}\n`);
