// Real processes for tests: `herald` commands and servers, and a private Redis server. The
// machinery is @herald/testkit's; these names stay for the suites written against them.
import { type ChildProcess, spawn } from "node:child_process";
import { heraldBin, heraldCli, type SpawnedHerald, spawnHerald, stopProcess } from "@herald/testkit";

export { freePort, heraldBin, startRedis } from "@herald/testkit";

export function heraldCommand(args: string[], env: Record<string, string>) {
  return heraldCli(env).run(...args);
}

export type Served = SpawnedHerald;

/** Starts `herald serve` on a free port and resolves once it serves. */
export function serve(env: Record<string, string>): Promise<Served> {
  return spawnHerald({ env });
}

export function stop(served: { process: ChildProcess }, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  return stopProcess(served.process, signal);
}

/** Runs the herald binary as a consumer does and collects its exact output; stdin gets `stdin` when given, else stays open and unwritten. */
export function heraldRaw(
  args: string[],
  env: Record<string, string | undefined> = {},
  stdin?: string,
): Promise<{ stdout: Buffer; stderr: Buffer; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(heraldBin, args, { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    if (stdin !== undefined) child.stdin.end(stdin);
    child.on("close", (code) => {
      child.stdin.destroy();
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err), code });
    });
  });
}

export interface TwoInstances {
  a: Served;
  b: Served;
  /** A producer key both instances accept (they share one store). */
  key: string;
  close(): Promise<void>;
}

/** Two `herald serve` processes sharing one PostgreSQL database and one Redis, as a deployment runs them. */
export async function twoInstances(db: { url: string }, redisUrl: string, env: Record<string, string> = {}): Promise<TwoInstances> {
  const key = (await heraldCommand(["key", "create", "--name", "two"], { DATABASE_URL: db.url })).lastLine;
  const shared = { DATABASE_URL: db.url, REDIS_URL: redisUrl, NODE_ENV: "production", ...env };
  const [a, b] = await Promise.all([serve(shared), serve(shared)]);
  return { a, b, key, close: () => Promise.all([stop(a), stop(b)]).then(() => undefined) };
}
