// A throwaway Redis on its own port, so a test can take it away and bring it back without
// touching the shared one.
import { type ChildProcess, spawn } from "node:child_process";
import { stopProcess } from "./processes.ts";

export interface PrivateRedis {
  process: ChildProcess;
  url: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startRedis(port: number): Promise<PrivateRedis> {
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
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`redis exited (${code}): ${output}`)));
  });
  return { process: child, url: `redis://127.0.0.1:${port}`, stop: (signal = "SIGTERM") => stopProcess(child, signal) };
}
