// `npm start`: Herald and its dashboard together on the embedded default store. Builds what the
// dashboard needs, starts the server, then the dashboard, and prints where to go.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const serverPort = process.env.PORT ?? "4000";
const appPort = process.env.APP_PORT ?? "5173";
const host = process.env.HOST ?? "127.0.0.1";
const heraldUrl = `http://${host}:${serverPort}/graphql`;
const dashboardUrl = `http://${host}:${appPort}`;

const build = spawnSync("npx", ["turbo", "run", "build", "--filter=@herald/app...", "--output-logs=errors-only"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
});
if (build.status !== 0) process.exit(build.status ?? 1);

const children: ChildProcess[] = [];
const stopAll = (code: number) => {
  for (const child of children) child.kill("SIGTERM");
  process.exit(code);
};
process.once("SIGINT", () => stopAll(0));
process.once("SIGTERM", () => stopAll(0));

// The binary itself, not `node <file>`: its shebang carries the server's V8 flags.
const server = spawn(join(root, "server", "bin", "herald.js"), ["serve"], {
  cwd: root,
  env: { ...process.env, PORT: serverPort, HOST: host, HERALD_DASHBOARD_URL: dashboardUrl },
  stdio: ["ignore", "pipe", "inherit"],
});
children.push(server);
server.on("exit", (code) => stopAll(code ?? 1));

let started = false;
server.stdout!.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (started || !chunk.toString().includes("Herald GraphQL")) return;
  started = true;
  const app = spawn(process.execPath, [join(root, "app", "build")], {
    cwd: root,
    env: { ...process.env, PORT: appPort, HOST: host, HERALD_URL: heraldUrl, ORIGIN: dashboardUrl },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(app);
  app.on("exit", (code) => stopAll(code ?? 1));
  setTimeout(() => console.log(`\nHerald dashboard: ${dashboardUrl}\n`), 500);
});
