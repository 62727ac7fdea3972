// A vitest global setup for suites that start herald: builds the server once before any test
// file runs (a missing or stale build is compiled, a failing one stops the run with tsc's errors).
import { ensureHeraldBuilt } from "./build.ts";

export default function setup(): void {
  ensureHeraldBuilt();
}
