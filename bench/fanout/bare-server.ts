// Starts bare-broadcaster.ts in its own process, placed like Herald (same CPUs, same limits).
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { fanoutConfig } from "./config.ts";
import { type FanoutServer, paddedBody, type StartOptions } from "./fanout-server.ts";
import { HttpPoster } from "./http-post.ts";
import { stopProcess } from "@herald/testkit";
import { spawnTracked } from "../processes.ts";
import { marker } from "./worker-protocol.ts";

const script = fileURLToPath(new URL("./bare-broadcaster.ts", import.meta.url));
const benchDir = fileURLToPath(new URL("..", import.meta.url));

function waitForPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`bare broadcaster did not start:\n${output}`)), fanoutConfig.serverStartTimeoutMs);
    const onData = (c: Buffer) => {
      output += c.toString();
      const match = /listening on (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`bare broadcaster exited (${code}):\n${output}`));
    });
  });
}

export async function startBare(options: StartOptions): Promise<FanoutServer> {
  const child = spawnTracked(process.execPath, ["--import", "tsx", script], {
    cpus: options.serverCpus || undefined,
    openFiles: options.openFiles,
    cwd: benchDir,
  });
  let port: number;
  try {
    port = await waitForPort(child);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  const poster = new HttpPoster(new URL(`http://127.0.0.1:${port}/pub`), { "content-type": "text/plain" }, options.maxPublishers);
  return {
    name: "bare",
    description: "bare node:http SSE broadcaster (bench/fanout/bare-broadcaster.ts): GET /sub, POST /pub writes the body to every stream",
    version: `Node ${process.version}`,
    pid: child.pid!,
    subscribe: { host: "127.0.0.1", port, request: `GET /sub HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n` },
    async publish(seq, sendMicros) {
      const response = await poster.post(paddedBody(marker(seq, sendMicros), fanoutConfig.baselineBodyBytes));
      if (response.status !== 204) throw new Error(`publish failed: HTTP ${response.status}`);
    },
    async stop() {
      poster.close();
      await stopProcess(child);
    },
  };
}
