// `npm run dev`: `herald serve` from the TypeScript sources, restarted on every change (tsx
// watch), with the flags the launcher gives `serve`. No build step; `npm run build` makes dist/.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { nodeFlags } from "../bin/node-flags.js";

const server = join(import.meta.dirname, "..");
const tsx = createRequire(import.meta.url).resolve("tsx/cli");
const child = spawn(
  process.execPath,
  [tsx, "watch", "--clear-screen=false", ...nodeFlags.serve, join(server, "src", "cli", "main.ts"), "serve", ...process.argv.slice(2)],
  {
    cwd: server,
    stdio: "inherit",
  },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
