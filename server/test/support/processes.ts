// Real processes for tests: `herald` commands and servers, and a private Redis server.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";

export const heraldBin = join(import.meta.dirname, "..", "..", "bin", "herald.js");
const run = promisify(execFile);

export async function heraldCommand(args: string[], env: Record<string, string>) {
  const { stdout, stderr } = await run(process.execPath, [heraldBin, ...args], { env: { ...process.env, LOG_LEVEL: "warn", ...env } });
  return { stdout, stderr, lastLine: stdout.trim().split("\n").at(-1)! };
}

export interface Served {
  process: ChildProcess;
  url: string;
  output: string;
}

/** Starts `herald serve` and resolves once it prints its GraphQL URL. */
export function serve(env: Record<string, string>): Promise<Served> {
  return new Promise((resolve, reject) => {
    // The binary itself, as an operator starts it (its shebang carries the server's V8 flags).
    const child = spawn(heraldBin, ["serve"], { env: { ...process.env, PORT: "0", LOG_LEVEL: "warn", ...env } });
    let output = "";
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 60_000);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Herald GraphQL \(GraphiQL in a browser\): (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ process: child, url: match[1]!, output });
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
}

export function stop(served: { process: ChildProcess }, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  return new Promise((resolve) => {
    // A process killed by a signal has no exit code, only a signal code.
    if (served.process.exitCode !== null || served.process.signalCode !== null) return resolve();
    served.process.once("exit", () => resolve());
    served.process.kill(signal);
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** A throwaway Redis on its own port, so a test can take it away and bring it back. */
export async function startRedis(port: number): Promise<{ process: ChildProcess }> {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "pipe" });
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`redis did not start: ${output}`)), 10_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("error", reject);
  });
  return { process: child };
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
