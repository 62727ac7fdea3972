// Starts the framework floor (bare-server.ts) in its own process, like Herald's: the load
// generator never shares an event loop with the server it measures.
import { fileURLToPath } from "node:url";
import { heraldNodeFlags, stopProcess } from "@herald/testkit";
import { benchConfig } from "./config.ts";
import { spawnTracked } from "./processes.ts";

const graphqlFloor = fileURLToPath(new URL("./bare-server.ts", import.meta.url));
const READY = "BARE_READY ";

export interface RunningBare {
  url: URL;
  stop(): Promise<void>;
}

/**
 * `env` names the store (BARE_PROVIDER, BARE_SQLITE_FILE or BARE_PG_URL/BARE_PG_SCHEMA) and BARE_READER_ID
 * for the GraphQL floor; `entry` another floor that prints the same ready line (bare-files.ts).
 */
export async function startBare(env: Record<string, string>, entry = graphqlFloor): Promise<RunningBare> {
  // Herald's own node flags (its young-generation size), so the runtime is the same on both sides.
  const child = spawnTracked(process.execPath, [...heraldNodeFlags(), "--import", "tsx", entry], { env: { ...process.env, ...env } });
  let output = "";
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the bare server did not start within ${benchConfig.serverStartTimeoutMs} ms:\n${output}`)),
      benchConfig.serverStartTimeoutMs,
    );
    child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(`    [bare] ${chunk.toString()}`));
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split("\n").find((l) => l.startsWith(READY));
      if (line) {
        clearTimeout(timer);
        resolve(new URL(line.slice(READY.length).trim()));
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the bare server exited during start (${signal ?? `exit ${code}`}):\n${output}`));
    });
  });
  return { url, stop: () => stopProcess(child) };
}
