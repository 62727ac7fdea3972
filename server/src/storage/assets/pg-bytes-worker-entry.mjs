// The attachment reader's entry point when the server runs from its TypeScript sources (in-process
// tests): plain JavaScript that teaches this thread TypeScript, then loads the worker. The
// compiled server starts pg-bytes-worker.js itself.
import { register } from "tsx/esm/api";

register();
await import("./pg-bytes-worker.ts");
