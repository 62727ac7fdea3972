#!/usr/bin/env -S node --max-semi-space-size=64
// Runs the TypeScript CLI directly (tsx), so there is no build step between a change and a run.
// A 64 MiB young generation: streaming allocates many short-lived objects per delivery, and with
// Node's default the server spent over a quarter of its CPU in scavenges (the fan-out benchmark
// finished its burst ~1.7x sooner with this). V8 reads the flag only at start, so it lives here;
// start the file itself (not `node herald.js`) to get it.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
