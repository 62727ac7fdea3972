// The test process's heap after garbage collection: what is still held, not what awaits collection.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { sleep } from "./sse.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

export async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    // Kept: finalizers and weak callbacks run on later turns after a collection; no event says
    // they are done, and the heap figure only needs them settled.
    await sleep(50);
  }
  return process.memoryUsage().heapUsed;
}
