// A real Herald server process for SDK tests, on a fixed port so it can be restarted in place.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const bin = join(import.meta.dirname, "..", "..", "..", "server", "bin", "herald.js");
const run = promisify(execFile);

export interface TestServer {
  url: string;
  producerKey: string;
  person: { id: string; token: string };
  newPerson(name: string): Promise<{ id: string; token: string }>;
  restart(): Promise<void>;
  kill(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export async function startServer(extraEnv: Record<string, string> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "herald-sdk-"));
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: `file:${join(dir, "herald.db")}`,
    PORT: String(port),
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    HERALD_SNOOZE_INTERVAL_MS: "100",
    ...extraEnv,
  };
  const cli = async (...args: string[]) => (await run(process.execPath, [bin, ...args], { env })).stdout.trim().split("\n");
  const producerKey = (await cli("key", "create", "--name", "sdk-tests")).at(-1)!;
  const newPerson = async (name: string) => {
    const lines = await cli("person", "create", "--name", name);
    return { id: lines[0]!.replace("person ", "").trim(), token: lines.at(-1)! };
  };
  const person = await newPerson("Ada");
  let child: ChildProcess | null = null;

  const start = () =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn(process.execPath, [bin, "serve"], { env });
      child = proc;
      let output = "";
      const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 60_000);
      proc.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Herald GraphQL")) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    });
  const kill = () =>
    new Promise<void>((resolve) => {
      const proc = child;
      // A process killed by a signal has no exit code, only a signal code.
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once("exit", () => resolve());
      proc.kill("SIGKILL");
    });

  await start();
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    producerKey,
    person,
    newPerson,
    start,
    kill,
    async restart() {
      await kill();
      await start();
    },
    async close() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds; fails the test when the time is up, so no wait passes silently. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000, stepMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${check.toString().slice(0, 200)}`);
    await sleep(stepMs);
  }
}
