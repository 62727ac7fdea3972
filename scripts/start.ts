// `npm start`: Herald and its dashboard together on the embedded default store. Builds what the
// dashboard needs and the server (each only when its sources changed), starts the server, then
// the dashboard, and prints where to go.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { spawnHerald, waitForHttp } from "@herald/testkit";

const root = join(import.meta.dirname, "..");
const serverPort = process.env.PORT ?? "4000";
const appPort = process.env.APP_PORT ?? "5173";
const host = process.env.HOST ?? "127.0.0.1";
const dashboardUrl = `http://${host}:${appPort}`;

const build = spawnSync("npx", ["turbo", "run", "build", "--filter=@herald/app...", "--filter=@herald/server", "--output-logs=errors-only"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
});
if (build.status !== 0) process.exit(build.status ?? 1);

const children: ChildProcess[] = [];
let stopping = false;
const stopAll = (code: number) => {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  process.exit(code);
};
/** A child that ends by itself ends `npm start` too, saying so and failing (even on exit code 0). */
const onChildExit = (name: string) => (code: number | null, signal: NodeJS.Signals | null) => {
  if (stopping) return;
  console.error(`\n${name} stopped (${signal ? `signal ${signal}` : `exit code ${code}`}); stopping npm start.`);
  stopAll(code ? code : 1);
};
process.once("SIGINT", () => stopAll(0));
process.once("SIGTERM", () => stopAll(0));

const server = await spawnHerald({
  // Not the test defaults: a person trying Herald gets the demo data and the server's own logs.
  env: {
    PORT: serverPort,
    HOST: host,
    HERALD_DASHBOARD_URL: dashboardUrl,
    NODE_ENV: process.env.NODE_ENV ?? "development",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
  },
  // The ready line is for programs; a person reads the line above it.
  onOutput: (text, stream) => (stream === "stdout" ? process.stdout : process.stderr).write(stream === "stdout" ? text.replace(/^HERALD_READY .*\n?/m, "") : text),
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
children.push(server.process);
server.process.on("exit", onChildExit("The Herald server"));

const app = spawn(process.execPath, [join(root, "app", "build")], {
  cwd: root,
  env: { ...process.env, PORT: appPort, HOST: host, HERALD_URL: server.url, ORIGIN: dashboardUrl },
  stdio: ["ignore", "inherit", "inherit"],
});
children.push(app);
app.on("exit", onChildExit("The dashboard"));
await waitForHttp(dashboardUrl, { child: app });
console.log(`\nHerald dashboard: ${dashboardUrl}`);
console.log(`A new sign-in link (the first start prints one): HERALD_DASHBOARD_URL=${dashboardUrl} npx herald person create --name <you>\n`);
