// Starts the downloaders (downloaders.ts) in a child process and stops them, counting completed
// downloads: the load of the attachment benchmark, kept off the measuring process's event loop.
import { fileURLToPath } from "node:url";
import { benchConfig } from "./config.ts";
import { spawnTracked } from "./processes.ts";

const entry = fileURLToPath(new URL("./downloaders.ts", import.meta.url));

export interface RunningDownloads {
  /** Ends the downloads (each finishes its current body) and returns how many completed. */
  stop(): Promise<number>;
}

export async function startDownloads(url: URL, token: string | null, downloaders: number): Promise<RunningDownloads> {
  const env = { ...process.env, DOWNLOAD_URL: url.toString(), DOWNLOADERS: String(downloaders), ...(token ? { DOWNLOAD_TOKEN: token } : {}) };
  const child = spawnTracked(process.execPath, ["--import", "tsx", entry], { env, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(`    [downloaders] ${chunk.toString()}`));
  const exited = new Promise<string>((resolve, reject) => {
    child.once("exit", (code, signal) =>
      code === 0 ? resolve(output) : reject(new Error(`the downloaders exited (${signal ?? `exit ${code}`}):\n${output}`)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the downloaders did not start within ${benchConfig.serverStartTimeoutMs} ms:\n${output}`)),
      benchConfig.serverStartTimeoutMs,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("DOWNLOADING\n")) {
        clearTimeout(timer);
        resolve();
      }
    });
    exited.catch((error: unknown) => {
      clearTimeout(timer);
      reject(error as Error);
    });
  });
  return {
    async stop() {
      child.stdin?.end();
      const text = await exited;
      const line = text.split("\n").find((l) => l.startsWith("DOWNLOADS "));
      return Number(line?.slice("DOWNLOADS ".length) ?? Number.NaN);
    },
  };
}
