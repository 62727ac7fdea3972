// The selection thread's entry point: plain JavaScript that teaches this thread TypeScript (the
// server runs its sources directly), then loads the worker. Nothing is inherited from the
// server's command line, so it starts the same under `herald serve`, the tests and benchmarks.
import { register } from "tsx/esm/api";

register();
await import("./selection-worker.ts");
