// A real Herald server (fresh SQLite file, NODE_ENV=production) and the built dashboard
// (`node app/build`) on free ports, with a person, a producer key and SDK clients for both.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createHeraldClient, type HeraldClient } from "@herald/sdk";

const root = join(import.meta.dirname, "..", "..", "..");
const heraldBin = join(root, "server", "bin", "herald.js");
const dashboardBuild = join(root, "app", "build");
const run = promisify(execFile);

export interface Stack {
  heraldUrl: string;
  dashboardUrl: string;
  person: { id: string; name: string; token: string; signInCode: string };
  producerKey: string;
  /** SDK client with the producer key. */
  producer: HeraldClient;
  /** SDK client with the person token, talking to Herald directly (the server's view). */
  personClient: HeraldClient;
  /** A fresh one-time sign-in code for the person. */
  newSignInCode(): Promise<string>;
  /** Runs the herald command line against this server's database; returns stdout lines. */
  cli(...args: string[]): Promise<string[]>;
  /** Stops the Herald server (the dashboard keeps running). */
  stopHerald(): Promise<void>;
  close(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

function startProcess(args: string[], env: NodeJS.ProcessEnv, ready: RegExp, name: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${name} did not start within 60 s:\n${output}`));
    }, 60_000);
    const listen = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout?.on("data", listen);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (process.env.HERALD_TEST_LOG) process.stderr.write(`[${name}] ${chunk.toString()}`);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code}:\n${output}`));
    });
  });
}

function stop(child: ChildProcess | null): Promise<void> {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
  });
}

export async function startStack(): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), "herald-app-"));
  const [heraldPort, dashboardPort] = [await freePort(), await freePort()];
  const heraldUrl = `http://127.0.0.1:${heraldPort}/graphql`;
  const dashboardUrl = `http://127.0.0.1:${dashboardPort}`;
  const heraldEnv = {
    ...process.env,
    DATABASE_URL: `file:${join(dir, "herald.db")}`,
    PORT: String(heraldPort),
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    HERALD_SNOOZE_INTERVAL_MS: "200",
    HERALD_DASHBOARD_URL: dashboardUrl,
  };
  const cli = async (...args: string[]) => (await run(process.execPath, [heraldBin, ...args], { env: heraldEnv, cwd: root })).stdout.trim().split("\n");

  let herald: ChildProcess | null = null;
  let dashboard: ChildProcess | null = null;
  try {
    const personLines = await cli("person", "create", "--name", "Ada");
    const person = {
      id: (personLines[0] ?? "").replace(/^person /, "").trim(),
      name: "Ada",
      token: personLines.at(-1) ?? "",
      signInCode: personLines.find((line) => line.includes("/signin/"))?.split("/signin/")[1]?.trim() ?? "",
    };
    const producerKey = (await cli("key", "create", "--name", "e2e")).at(-1) ?? "";
    herald = await startProcess([heraldBin, "serve"], heraldEnv, /Herald GraphQL/, "herald");
    dashboard = await startProcess(
      [dashboardBuild],
      // ORIGIN: adapter-node otherwise assumes https behind a proxy (and the cookie would be Secure).
      { ...process.env, NODE_ENV: "production", PORT: String(dashboardPort), HOST: "127.0.0.1", ORIGIN: dashboardUrl, HERALD_URL: heraldUrl },
      /Listening on/,
      "dashboard",
    );
    const producer = createHeraldClient({ url: heraldUrl, token: producerKey });
    const personClient = createHeraldClient({ url: heraldUrl, token: person.token });
    const started = { herald, dashboard };
    return {
      heraldUrl,
      dashboardUrl,
      person,
      producerKey,
      producer,
      personClient,
      newSignInCode: async () => (await producer.issueSignInCode(person.id)).code,
      cli,
      stopHerald: () => stop(started.herald),
      async close() {
        producer.close();
        personClient.close();
        await Promise.all([stop(started.dashboard), stop(started.herald)]);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await Promise.all([stop(dashboard), stop(herald)]);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds or the time is up; returns whether it held. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, stepMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(stepMs);
  }
  return check();
}
