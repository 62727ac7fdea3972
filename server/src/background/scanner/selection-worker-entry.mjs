// The selection thread's entry point when the server runs from its TypeScript sources (in-process
// tests): plain JavaScript that teaches this thread TypeScript, then loads the worker. The
// compiled server starts selection-worker.js itself. Nothing is inherited from the
// server's command line, so it starts the same under `herald serve`, the tests and benchmarks.
import { register } from "tsx/esm/api";

register();
await import("./selection-worker.ts");
