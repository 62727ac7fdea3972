// This process's heap after garbage collection: what is still held, not what awaits collection.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

export async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    // Finalizers and weak callbacks run on later turns after a collection; nothing says when they
    // are done, so each collection is followed by a short pause before the next one.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return process.memoryUsage().heapUsed;
}
