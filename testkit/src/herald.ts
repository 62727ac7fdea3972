// `herald serve` and the `herald` CLI in their own processes, started through the launcher
// (server/bin/herald.js), which runs the compiled build. The kit starts `serve` in a node that
// already has the launcher's V8 flags, so the process it holds is the server itself (a kill is a
// crash of the server, not of a launcher in front of it).
import { type ChildProcess, spawn as spawnChild } from "node:child_process";
import { join } from "node:path";
import { nodeFlags } from "@herald/server/node-flags";
import { ensureHeraldBuilt } from "./build.ts";
import { stopProcess } from "./processes.ts";

export const heraldBin = join(import.meta.dirname, "..", "..", "server", "bin", "herald.js");

/** What `herald serve` prints, as one line, once it serves requests. */
const READY_PREFIX = "HERALD_READY ";

export type Env = Record<string, string | undefined>;
export type Spawn = (command: string, args: string[], env: NodeJS.ProcessEnv) => ChildProcess;

const spawnPiped: Spawn = (command, args, env) => spawnChild(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });

// Nothing the kit starts may outlive the process that started it: a test that times out mid-start
// or forgets to stop its server would otherwise leave a herald holding a port and a database.
// Children someone already signalled are left to finish their own shutdown (npm start's Ctrl-C).
// A signal skips "exit" handlers, so an unhandled SIGINT or SIGTERM ends the children first and
// is then raised again to take its usual course.
const running = new Set<ChildProcess>();
const endRunning = () => {
  for (const child of running) {
    try {
      if (!child.killed) child.kill("SIGTERM");
    } catch {
      // already gone
    }
  }
};
process.once("exit", endRunning);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    if (process.listenerCount(signal) > 0) return; // the program handles it, and its exit runs endRunning
    endRunning();
    process.kill(process.pid, signal);
  });
}
function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

/**
 * The environment of a herald process: the caller's on top of ours. `production`: no demo data on
 * a first start; `warn`: request logs would cost CPU and bury what matters; port 0: a free port.
 */
export function heraldEnv(env: Env = {}): NodeJS.ProcessEnv {
  return { ...process.env, NODE_ENV: "production", LOG_LEVEL: "warn", HOST: "127.0.0.1", PORT: "0", ...env };
}

/** The node flags the launcher gives a command (server/bin/node-flags.js); `serve`'s by default. */
export function heraldNodeFlags(command = "serve"): string[] {
  return [...(nodeFlags[command] ?? [])];
}

export interface SpawnHeraldOptions {
  /** On top of heraldEnv()'s defaults; DATABASE_URL unset means the embedded default under ./data. */
  env?: Env;
  /** The command and its arguments; default ["serve"]. */
  args?: string[];
  /** Extra node flags (e.g. --cpu-prof), after the launcher's own for the command. */
  nodeArgs?: string[];
  /** Starts the process (e.g. pinned to CPUs, tracked for clean-up); default: spawn with piped output. */
  spawn?: Spawn;
  /** Everything the process prints, as it arrives. */
  onOutput?: (text: string, stream: "stdout" | "stderr") => void;
  startTimeoutMs?: number;
}

export interface SpawnedHerald {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:4123/graphql. */
  url: string;
  /** Scheme, host and port, e.g. http://127.0.0.1:4123. */
  origin: string;
  port: number;
  process: ChildProcess;
  /** What the process printed so far (stdout and stderr), for assertions and failure messages. */
  readonly output: string;
  /** Resolves when the process has exited, however. */
  exited: Promise<void>;
  /** SIGTERM (or `signal`), SIGKILL after 10 s; resolves once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** SIGKILL: a crash, with no graceful shutdown. */
  kill(): Promise<void>;
}

interface ReadyLine {
  url: string;
  origin: string;
}

/** Starts `herald serve` (or `args`) and resolves once it prints its ready line. */
export async function spawnHerald(options: SpawnHeraldOptions = {}): Promise<SpawnedHerald> {
  const args = options.args ?? ["serve"];
  ensureHeraldBuilt();
  const argv = [...heraldNodeFlags(args[0]), ...(options.nodeArgs ?? []), heraldBin, ...args];
  const child = track((options.spawn ?? spawnPiped)(process.execPath, argv, heraldEnv(options.env)));
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let output = "";
  const timeoutMs = options.startTimeoutMs ?? 60_000;

  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    let pending = "";
    let settled = false;
    const settle = (error: Error | null, line?: ReadyLine) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) void stopProcess(child, "SIGKILL").then(() => reject(error));
      else resolve(line!);
    };
    const timer = setTimeout(() => settle(new Error(`herald ${args.join(" ")} did not get ready within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const read = (stream: "stdout" | "stderr") => (chunk: Buffer) => {
      const text = chunk.toString();
      // Bounded: a long-running server's output is only kept for its start.
      if (output.length < 1_000_000) output += text;
      options.onOutput?.(text, stream);
      if (stream !== "stdout" || settled) return;
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop()!;
      const found = lines.find((line) => line.startsWith(READY_PREFIX));
      if (found) settle(null, JSON.parse(found.slice(READY_PREFIX.length)) as ReadyLine);
    };
    child.stdout?.on("data", read("stdout"));
    child.stderr?.on("data", read("stderr"));
    child.once("error", (error) => settle(error));
    child.once("exit", (code, signal) => settle(new Error(`herald ${args.join(" ")} exited during start (${signal ?? `exit ${code}`}):\n${output}`)));
  });

  return {
    url: ready.url,
    origin: ready.origin,
    port: Number(new URL(ready.origin).port),
    process: child,
    get output() {
      return output;
    },
    exited: gone,
    stop: (signal = "SIGTERM") => stopProcess(child, signal),
    kill: () => stopProcess(child, "SIGKILL"),
  };
}

export interface CliResult {
  stdout: string;
  stderr: string;
  lines: string[];
  /** Commands that create a credential print it as their last line. */
  lastLine: string;
}

/** A command that exited with anything but 0; carries what it printed, like node's execFile error. */
export class CliError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | null,
    readonly signal: NodeJS.Signals | null,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`herald ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${stderr}${stdout}`);
  }
}

export interface CreatedPerson {
  id: string;
  token: string;
  /** The one-time dashboard sign-in code from the printed link. */
  signInCode: string;
}

export interface HeraldCli {
  /** Runs `herald <args>`; rejects with its output when it exits with anything but 0. */
  run(...args: string[]): Promise<CliResult>;
  createPerson(name: string): Promise<CreatedPerson>;
  /** An admin key, or with `plugin` a key bound to that plugin (what hooks and agents get). */
  createProducerKey(name: string, plugin?: string): Promise<string>;
}

/** The `herald` command line against one store (`env.DATABASE_URL`). */
export function heraldCli(env: Env = {}, options: { spawn?: Spawn; timeoutMs?: number } = {}): HeraldCli {
  const run = (...args: string[]) =>
    new Promise<CliResult>((resolve, reject) => {
      ensureHeraldBuilt();
      const child = track((options.spawn ?? spawnPiped)(process.execPath, [...heraldNodeFlags(args[0]), heraldBin, ...args], heraldEnv(env)));
      let stdout = "";
      let stderr = "";
      child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
      child.once("error", reject);
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        if (code !== 0) return reject(new CliError(args, code, signal, stdout, stderr));
        const lines = stdout.trim().split("\n");
        resolve({ stdout, stderr, lines, lastLine: lines.at(-1)! });
      });
    });

  return {
    run,
    async createPerson(name) {
      const { lines, lastLine } = await run("person", "create", "--name", name);
      const id = /^person (\S+)$/.exec(lines[0] ?? "")?.[1];
      const signInCode = lines
        .find((line) => line.includes("/signin/"))
        ?.split("/signin/")[1]
        ?.trim();
      if (!id || !signInCode || !lastLine.startsWith("herald_pt_")) throw new Error(`unexpected output of person create:\n${lines.join("\n")}`);
      return { id, token: lastLine, signInCode };
    },
    async createProducerKey(name, plugin) {
      const { lines, lastLine } = await run("key", "create", "--name", name, ...(plugin ? ["--plugin", plugin] : []));
      if (!lastLine.startsWith("herald_pk_")) throw new Error(`unexpected output of key create:\n${lines.join("\n")}`);
      return lastLine;
    },
  };
}
