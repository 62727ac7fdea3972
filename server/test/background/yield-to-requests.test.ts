// The delivery worker's pause between batches: long while something else keeps the event loop
// busy (at most nine times the batch, a tenth of the loop for background work), back to a glance
// once the loop is idle.
import { describe, expect, it } from "vitest";
import { RequestYield } from "../../src/background/yield-to-requests.ts";

/** Keeps the event loop busy, as a stream of requests would: 4 ms of work in every 5. */
function busyLoop(): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + 4;
    while (performance.now() < until);
  }, 1);
  return () => clearInterval(timer);
}

describe("RequestYield", () => {
  it("grows its pauses to nine times the batch while others keep the loop busy, and shrinks them when it is idle", async () => {
    const yielding = new RequestYield();
    expect(yielding.factor).toBe(0);
    const stop = busyLoop();
    try {
      for (let i = 0; i < 8 && yielding.factor < 9; i++) await yielding.after(2);
    } finally {
      stop();
    }
    expect(yielding.factor).toBe(9);
    for (let i = 0; i < 10 && yielding.factor > 0; i++) await yielding.after(1);
    expect(yielding.factor).toBe(0);
  });
});
