// Pi in RPC mode (`pi --mode rpc`), driven the way an editor drives it: JSON commands on stdin,
// events, responses and extension UI requests as JSON lines on stdout (split on "\n" only, as
// the protocol requires). Everything it prints is kept, and waits resolve on the line they need.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stopProcess } from "@herald/testkit";
import { harnessBin } from "./harnesses.ts";

export const piBin = harnessBin("pi");
export const piExtension = join(import.meta.dirname, "..", "..", "pi", "index.ts");

export type RpcLine = Record<string, any>;

export interface PiRpc {
  process: ChildProcess;
  readonly lines: RpcLine[];
  readonly stderr: string;
  send(command: RpcLine): void;
  /** Resolves with the first line (already seen or to come) after index `from` that matches. */
  waitFor(match: (line: RpcLine) => boolean, what: string, options?: { from?: number; timeoutMs?: number }): Promise<RpcLine>;
  /** Sends a command with an id and resolves with its response. */
  request(command: RpcLine): Promise<RpcLine>;
  stop(): Promise<void>;
}

/** A Pi home with one custom provider pointing at `baseUrl` (the fake chat server). */
export function writePiHome(agentDir: string, baseUrl: string, settings: Record<string, unknown> = {}): void {
  mkdirSync(agentDir, { recursive: true });
  const models = {
    providers: {
      fake: {
        baseUrl,
        api: "openai-completions",
        apiKey: "fake-key",
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: "fake-model" }],
      },
    },
  };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify(models, null, 2));
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify(settings, null, 2));
}

/** Pi in RPC mode; with `extension: "installed"` the extension is not passed with -e but found where an install put it. */
export function startPiRpc(options: {
  cwd: string;
  home: string;
  agentDir: string;
  env: Record<string, string>;
  args?: string[];
  extension?: "flag" | "installed";
}): PiRpc {
  const extension = options.extension === "installed" ? [] : ["-e", piExtension];
  const child = spawn(piBin, ["--mode", "rpc", "--provider", "fake", "--model", "fake-model", ...extension, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...process.env, HOME: options.home, PI_CODING_AGENT_DIR: options.agentDir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: RpcLine[] = [];
  const waiters = new Set<() => void>();
  let pending = "";
  let stderr = "";
  let nextId = 0;
  child.stdout!.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    let at: number;
    while ((at = pending.indexOf("\n")) >= 0) {
      const raw = pending.slice(0, at).replace(/\r$/, "");
      pending = pending.slice(at + 1);
      if (!raw.trim()) continue;
      try {
        lines.push(JSON.parse(raw) as RpcLine);
      } catch {
        lines.push({ type: "unparsed", raw });
      }
    }
    for (const wake of [...waiters]) wake();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    if (stderr.length < 200_000) stderr += chunk.toString("utf8");
  });
  child.once("exit", () => {
    for (const wake of [...waiters]) wake();
  });

  const waitFor: PiRpc["waitFor"] = (match, what, { from = 0, timeoutMs = 120_000 } = {}) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = lines.slice(from).find(match);
        if (found) {
          done();
          resolve(found);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          done();
          reject(new Error(`pi exited while waiting for ${what}; stderr:\n${stderr}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${what}; stderr:\n${stderr}\nlast lines:\n${lines
              .slice(-5)
              .map((l) => JSON.stringify(l).slice(0, 300))
              .join("\n")}`,
          ),
        );
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const send = (command: RpcLine) => child.stdin!.write(`${JSON.stringify(command)}\n`);
  return {
    process: child,
    lines,
    get stderr() {
      return stderr;
    },
    send,
    waitFor,
    async request(command) {
      const id = `req-${++nextId}`;
      const from = lines.length;
      send({ ...command, id });
      const response = await waitFor((l) => l.type === "response" && l.id === id, `the response to ${command.type}`, { from });
      if (!response.success) throw new Error(`pi refused ${command.type}: ${JSON.stringify(response)}`);
      return response;
    },
    async stop() {
      child.stdin!.end();
      await stopProcess(child, "SIGTERM");
    },
  };
}
