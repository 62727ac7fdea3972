// The node flags a command runs with, for the launcher (herald.js) and whoever starts node by hand
// (the test kit, benchmarks). Plain JavaScript beside the launcher: read before anything is built.
//
// `serve` gets an 8 MiB young generation, set rather than left to V8's heuristics: streaming
// allocates many short-lived objects per delivery. It was 64 MiB while every subscriber rendered
// and serialised its own copy of each event, then 16 MiB; since a subscriber holds no chain of its
// own (the person stream pushes), 8 MiB delivers as fast, with a lower steady p99 and less RSS per
// subscriber (bench/history.md, "Write bytes" and "Lean subscribers"). Short-lived commands need
// no tuning and start without a second process. V8 flags that must hold in every serving process,
// however it was started (an embedder, a benchmark), are set by startServer (src/app.ts).
export const nodeFlags = {
  serve: ["--max-semi-space-size=8"],
};

/** The flags `command` needs that this process was not started with. */
export function missingNodeFlags(command, execArgv = process.execArgv) {
  return (nodeFlags[command] ?? []).filter((flag) => !execArgv.includes(flag));
}
