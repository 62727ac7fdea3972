// Stopping child processes, whoever started them.
import type { ChildProcess } from "node:child_process";
import { sleep } from "./wait.ts";

/** A process killed by a signal has no exit code, only a signal code. */
export function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Sends `signal` (SIGTERM), then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM", graceMs = 10_000): Promise<void> {
  if (exited(child)) return;
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  const timer = signal === "SIGKILL" ? undefined : setTimeout(() => child.kill("SIGKILL"), graceMs);
  await gone;
  clearTimeout(timer);
}

/**
 * Resolves once `url` answers HTTP at all (any status), for servers that print no ready line;
 * throws when `child` exits first or `timeoutMs` passes.
 */
export async function waitForHttp(url: string, options: { child?: ChildProcess; timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (options.child && exited(options.child))
      throw new Error(`the process for ${url} exited (${options.child.signalCode ?? `exit ${options.child.exitCode}`})`);
    const answered = await fetch(url, { method: "HEAD", redirect: "manual", signal: AbortSignal.timeout(2_000) }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    if (Date.now() >= deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    // Pacing a probe: a server we did not start (the dashboard's) prints no readiness line to wait on.
    await sleep(50);
  }
}
