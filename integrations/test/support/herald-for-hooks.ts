// A real `herald serve` on a fresh embedded store, a person and a producer key bound to the
// harness's plugin (the setup the README recommends; no admin key reaches a hook), and a folder with
// a `herald` executable to put on a harness's PATH, so the hooks run exactly as
// `herald hooks install` configures them (`herald hook <harness>`).
import { spawn } from "node:child_process";
import { symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { createTempDir, createTempSqlite, heraldBin, heraldCli, type HeraldCli, spawnHerald, type SpawnedHerald } from "@herald/testkit";

export interface HeraldForHooks {
  served: SpawnedHerald;
  databaseUrl: string;
  cli: HeraldCli;
  producerKey: string;
  person: { id: string; token: string };
  /** PATH for a harness: `herald`, node, then the system's folders. */
  path: string;
  /** What a hook needs to reach Herald, for the harness's environment. */
  hookEnv: Record<string, string>;
  /** A person-token GraphQL call. */
  asPerson<T = any>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /** A producer-key GraphQL call. */
  asProducer<T = any>(query: string, variables?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

export async function startHeraldForHooks(harness: "claude-code" | "codex"): Promise<HeraldForHooks> {
  const store = createTempSqlite("herald-hooks-");
  const bin = createTempDir("herald-bin-");
  symlinkSync(heraldBin, join(bin.path, "herald"));
  const cli = heraldCli({ DATABASE_URL: store.url });
  const producerKey = await cli.createProducerKey(`${harness} hooks`, harness);
  const person = await cli.createPerson("Ada");
  // The default labeler (built in, offline) names sessions.
  const served = await spawnHerald({ env: { DATABASE_URL: store.url, HERALD_LABELER_URL: undefined } });
  const call = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(served.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: any; errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  return {
    served,
    databaseUrl: store.url,
    cli,
    producerKey,
    person,
    path: [bin.path, dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
    // The hook's 2 s budget is for an agent's machine; this one runs other suites at once.
    hookEnv: { HERALD_URL: served.origin, HERALD_PRODUCER_KEY: producerKey, HERALD_PERSON_ID: person.id, HERALD_HOOK_TIMEOUT_MS: "10000" },
    asPerson: (query, variables) => call(person.token, query, variables),
    asProducer: (query, variables) => call(producerKey, query, variables),
    async close() {
      await served.stop();
      store.remove();
      bin.remove();
    },
  };
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end with exactly `env` (nothing of the test runner's own environment). */
export function run(command: string, args: string[], options: { cwd: string; env: Record<string, string>; stdin?: string; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    if (options.stdin !== undefined) child.stdin!.end(options.stdin);
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 150_000);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export const SESSION_QUERY = `query($h: String!, $s: String!) { session(harness: $h, sessionId: $s) { id label completionId sourceGeneration labelGeneration } }`;
export const INBOX_QUERY = `{ notifications(first: 50) { edges { node { id key scope sessionId revision status severity title body source { plugin subsystem } } } } }`;
