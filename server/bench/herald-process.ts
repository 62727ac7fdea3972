// Herald as an operator runs it: credentials from the CLI, then `herald serve` in its own
// process, so the server and the load generator do not share an event loop.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { benchConfig } from "./config.ts";

export const heraldBin = fileURLToPath(new URL("../bin/herald.js", import.meta.url));

export function heraldEnv(databaseUrl: string): NodeJS.ProcessEnv {
  // production: no demo data on first start; warn: request logs would cost the server CPU.
  // The per-credential limits are lifted: the load generators are one credential doing the work of many.
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    PORT: "0",
    HOST: "127.0.0.1",
    HERALD_RATE_LIMIT_POINTS: "1000000000",
    HERALD_MAX_STREAMS_PER_CREDENTIAL: "1000000",
  };
}

type SpawnChild = (command: string, args: string[], env: NodeJS.ProcessEnv) => ChildProcess;
const spawnPiped: SpawnChild = (command, args, env) => spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });

/** Runs a `herald` CLI command; resolves with its stdout lines. `spawnChild` lets a caller track the process. */
export function runCli(databaseUrl: string, args: string[], spawnChild: SpawnChild = spawnPiped): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawnChild(process.execPath, [heraldBin, ...args], heraldEnv(databaseUrl));
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), benchConfig.cliTimeoutMs);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(stdout.trim().split("\n"));
      reject(new Error(`herald ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${stderr || stdout}`));
    });
  });
}

export interface Credentials {
  /** The person whose list is measured, and their token. */
  reader: { id: string; token: string };
  /** The addressee of the publish scenarios, kept apart so the list holds exactly the seeded rows. */
  addresseeId: string;
  producerKey: string;
}

export async function createCredentials(databaseUrl: string): Promise<Credentials> {
  // One at a time: each command applies migrations first, and the first one creates the schema.
  const person = async (name: string) => {
    const lines = await runCli(databaseUrl, ["person", "create", "--name", name]);
    const id = /^person (\S+)$/.exec(lines[0] ?? "")?.[1];
    if (!id) throw new Error(`Unexpected output of person create: ${lines.join(" | ")}`);
    return { id, token: lines.at(-1)! };
  };
  const reader = await person("Bench reader");
  const addressee = await person("Bench addressee");
  const producerKey = (await runCli(databaseUrl, ["key", "create", "--name", "bench"])).at(-1)!;
  return { reader, addresseeId: addressee.id, producerKey };
}

export interface RunningHerald {
  url: URL;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Last resort when the benchmark itself is interrupted: no server may outlive it. */
export function killAllServers(): void {
  for (const child of running) child.kill("SIGKILL");
}

export function startHerald(databaseUrl: string): Promise<RunningHerald> {
  // The binary itself, as an operator starts it: its shebang carries the server's V8 flags.
  const child = spawn(heraldBin, ["serve"], { env: heraldEnv(databaseUrl), stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => running.delete(child));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };

  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`${why}\n${stderr}`)));
    };
    const timer = setTimeout(() => fail("Herald did not start in time"), benchConfig.serverStartTimeoutMs);
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
      // Keep warnings visible (LOG_LEVEL=warn) without flooding the report.
      process.stderr.write(`    [herald] ${c.toString()}`);
    });
    child.stdout.on("data", (c: Buffer) => {
      if (settled) return;
      stdout += c.toString();
      const match = /Herald GraphQL \(GraphiQL in a browser\): (http:\/\/127\.0\.0\.1:\d+\/graphql)/.exec(stdout);
      if (match) {
        settled = true;
        clearTimeout(timer);
        resolve({ url: new URL(match[1]!), stop });
      }
    });
    child.once("exit", (code, signal) => fail(`Herald exited during start (${signal ?? `exit ${code}`})`));
  });
}
