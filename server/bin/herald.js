#!/usr/bin/env -S node --max-semi-space-size=8
// Runs the TypeScript CLI directly (tsx), so there is no build step between a change and a run.
// An 8 MiB young generation, set rather than left to V8's heuristics: streaming allocates many
// short-lived objects per delivery. It was 64 MiB while every subscriber rendered and serialised
// its own copy of each event, then 16 MiB; since a subscriber holds no chain of its own (the
// person stream pushes), 8 MiB delivers as fast, with a lower steady p99 and less RSS per
// subscriber (docs/decisions.md, "Write bytes" and "Lean subscribers"). V8 reads the flag only at
// start, so it lives here; start the file itself (not `node herald.js`) to get it.
import { register } from "tsx/esm/api";

register();
// The read-only metadata query must not load (let alone run) the server's start-up path.
// Nor must a harness hook, which runs after every agent turn.
if (process.argv[2] === "session-metadata") await import("../src/cli/session-metadata.ts");
else if (process.argv[2] === "hook") await import("../src/cli/hook/entry.ts");
else await import("../src/cli/main.ts");
