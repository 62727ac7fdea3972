// Runs `herald session-metadata --harness pi --session-id <id>` once: at most 2 s and 2048 bytes
// of stdout, stdin closed, stderr ignored, killed on abort. Every failure is an empty answer
// (null), never an exception: the schedule just goes on to its next slot.
import { spawn } from "node:child_process";
import { HARNESS, METADATA_MAX_BYTES } from "./label-state.ts";

export const READ_TIMEOUT_MS = 2_000;

export interface MetadataCommand {
  /** The `herald` executable (HERALD_BIN, default `herald` on PATH). */
  bin: string;
  env: NodeJS.ProcessEnv;
}

export function metadataCommandFrom(env: NodeJS.ProcessEnv = process.env): MetadataCommand {
  return { bin: env.HERALD_BIN?.trim() || "herald", env };
}

/** The command's stdout when it exited 0 within the bounds, else null; `onSpawnError` hears why it could not start. */
export function readMetadata(command: MetadataCommand, sessionId: string, signal: AbortSignal, onSpawnError?: (error: Error) => void): Promise<string | null> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(null);
    let settled = false;
    const chunks: Buffer[] = [];
    let size = 0;
    const child = spawn(command.bin, ["session-metadata", "--harness", HARNESS, "--session-id", sessionId], {
      env: command.env,
      stdio: ["ignore", "pipe", "ignore"],
      windowsHide: true,
    });
    const finish = (value: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", abort);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      resolve(value);
    };
    const abort = () => finish(null);
    const timer = setTimeout(abort, READ_TIMEOUT_MS);
    signal.addEventListener("abort", abort, { once: true });
    child.once("error", (error) => {
      onSpawnError?.(error);
      finish(null);
    });
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > METADATA_MAX_BYTES) return finish(null);
      chunks.push(chunk);
    });
    child.once("close", (code) => finish(code === 0 ? Buffer.concat(chunks).toString("utf8") : null));
  });
}
