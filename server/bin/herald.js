#!/usr/bin/env -S node --max-semi-space-size=64
// Runs the TypeScript CLI directly (tsx), so there is no build step between a change and a run.
// A 64 MiB young generation: streaming allocates many short-lived objects per delivery, and with
// Node's default the server spent over a quarter of its CPU in scavenges (the fan-out benchmark
// finished its burst ~1.7x sooner with this). V8 reads the flag only at start, so it lives here;
// start the file itself (not `node herald.js`) to get it.
import { register } from "tsx/esm/api";

register();
// The read-only metadata query must not load (let alone run) the server's start-up path.
if (process.argv[2] === "session-metadata") await import("../src/cli/session-metadata.ts");
else await import("../src/cli/main.ts");
