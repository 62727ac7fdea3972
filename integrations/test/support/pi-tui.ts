// Pi's interactive TUI on a pseudo-terminal (util-linux `script`, as a person's terminal runs it):
// keystrokes go in, the raw terminal output comes out, and waits resolve on what it shows. The
// terminal titles Pi and its extensions set are the OSC 0 sequences in that output.
import { type ChildProcess, spawn } from "node:child_process";
import { stopProcess } from "@herald/testkit";
import { piBin, piExtension } from "./pi-rpc.ts";

export interface PiTui {
  process: ChildProcess;
  readonly output: string;
  /** Every terminal title set so far, oldest first. */
  titles(): string[];
  /** Types `text` and presses Enter. */
  submit(text: string): void;
  /** Resolves once `match` holds for the output. */
  waitFor(match: (tui: PiTui) => boolean, what: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export function startPiTui(options: { cwd: string; home: string; agentDir: string; env: Record<string, string>; args?: string[] }): PiTui {
  const command = [piBin, "--provider", "fake", "--model", "fake-model", "-e", piExtension, ...(options.args ?? [])].map(quote).join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    cwd: options.cwd,
    env: {
      ...process.env,
      HOME: options.home,
      PI_CODING_AGENT_DIR: options.agentDir,
      PI_OFFLINE: "1",
      PI_SKIP_VERSION_CHECK: "1",
      TERM: "xterm-256color",
      COLUMNS: "120",
      LINES: "40",
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  const waiters = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of [...waiters]) wake();
  };
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
    wakeAll();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
    wakeAll();
  });
  child.once("exit", wakeAll);
  const tui: PiTui = {
    process: child,
    get output() {
      return output;
    },
    titles: () =>
      output
        .split("\u001b]0;")
        .slice(1)
        .filter((rest) => rest.includes("\u0007"))
        .map((rest) => rest.slice(0, rest.indexOf("\u0007"))),
    submit(text) {
      child.stdin!.write(text);
      // Enter on its own, as a key press after the typing.
      setImmediate(() => child.stdin!.write("\r"));
    },
    waitFor: (match, what, timeoutMs = 120_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (match(tui)) {
            done();
            resolve();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(new Error(`pi exited while waiting for ${what}; output:\n${output.slice(-2000)}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; titles: ${JSON.stringify(tui.titles())}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    stop: () => stopProcess(child),
  };
  return tui;
}
