#!/usr/bin/env node
// The `herald` command: runs the compiled build in dist/ (`npm run build`), never TypeScript.
//
// Light commands start their own entry point, so they load none of the command line, the server
// or a store they do not use (the metadata query runs within a few times a bare node's start-up).
// A command that needs V8 flags (node-flags.js) and was started without them runs in a child node
// that has them: V8 reads them only at start, and a shebang's flags are lost to `node herald.js`.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { missingNodeFlags } from "./node-flags.js";

/** Commands with an entry point of their own in dist/cli/; everything else goes through main.js. */
const lightEntries = {
  "session-metadata": "session-metadata.js",
  publish: "producer-main.js",
  update: "producer-main.js",
  resolve: "producer-main.js",
  expire: "producer-main.js",
  emit: "producer-main.js",
  // A harness hook runs after every agent turn.
  hook: "hook/entry.js",
  mcp: "mcp.js",
};

const command = process.argv[2];

// The minimum package.json's engines states (every locked dependency's engines allow it): an older
// node gets one clear line instead of a failure deep inside a dependency. Not for a harness hook,
// which must never fail the agent.
const [major, minor] = process.versions.node.split(".").map(Number);
if (command !== "hook" && (major < 20 || (major === 20 && minor < 19))) {
  process.stderr.write(`Herald needs Node.js 20.19 or newer; this is Node.js ${process.versions.node}.\n`);
  process.exit(1);
}
const entry = new URL(`../dist/cli/${lightEntries[command] ?? "main.js"}`, import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(`herald is not built (${fileURLToPath(entry)} is missing): run \`npm run build\` in the repository first.\n`);
  process.exit(1);
}

const flags = missingNodeFlags(command);
if (flags.length === 0) {
  if (process.env.HERALD_LAUNCHER_CHILD && process.channel) stopWithParent();
  await import(entry.href);
} else {
  await runWithFlags(flags);
}

/**
 * Runs this command again in a node started with `flags`, and ends as it ends. The child is in its
 * own process group, so a terminal's Ctrl-C reaches it once (forwarded from here), not twice; and
 * it stops itself when this process disappears without a signal it could forward (SIGKILL).
 */
async function runWithFlags(flags) {
  const child = spawn(process.execPath, [...process.execArgv, ...flags, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    detached: true,
    env: { ...process.env, HERALD_LAUNCHER_CHILD: "1" },
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.once("error", (error) => {
    process.stderr.write(`herald: could not start node: ${error.message}\n`);
    process.exit(1);
  });
  child.once("exit", (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
}

/** In the child: a launcher that is gone (its channel closed) stops the command as SIGTERM would. */
function stopWithParent() {
  delete process.env.HERALD_LAUNCHER_CHILD;
  process.channel.unref();
  process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
}
