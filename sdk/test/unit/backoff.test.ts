import { describe, expect, it } from "vitest";
import { backoffDelay, type ReconnectClock, Reconnector } from "../../src/index.ts";

const options = { initialMs: 250, maxMs: 10_000 };

describe("backoffDelay", () => {
  it("doubles the ceiling per attempt up to the maximum", () => {
    const ceiling = (attempt: number) => backoffDelay(attempt, options, () => 1);
    expect([0, 1, 2, 3, 4, 5, 6].map(ceiling)).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000]);
    expect(ceiling(1_000)).toBe(10_000);
  });

  it("draws the delay uniformly below the ceiling (full jitter), so clients spread out", () => {
    expect(backoffDelay(3, options, () => 0)).toBe(0);
    expect(backoffDelay(3, options, () => 0.5)).toBe(1000);
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(4, options)));
    expect(delays.size).toBeGreaterThan(10);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(4000);
    }
  });
});

describe("Reconnector", () => {
  function manualClock() {
    const timers = new Map<number, { ms: number; callback: () => void }>();
    let next = 0;
    const clock: ReconnectClock = {
      setTimeout: (callback, ms) => (timers.set(++next, { ms, callback }), next),
      clearTimeout: (handle) => void timers.delete(handle as number),
      random: () => 1,
    };
    const fire = (ms: number) => {
      const entry = [...timers].find(([, t]) => t.ms === ms);
      if (!entry) throw new Error(`no timer of ${ms} ms`);
      timers.delete(entry[0]);
      entry[1].callback();
    };
    return { clock, timers, fire };
  }
  const options = { initialMs: 250, maxMs: 30_000, stableMs: 10_000 };

  it("keeps one attempt waiting at a time and does not reset on a connection that fails at once", () => {
    const { clock, timers, fire } = manualClock();
    const reconnect = new Reconnector(options, clock);
    let runs = 0;
    expect(reconnect.failed(() => runs++)).toBe(500);
    expect(reconnect.failed(() => runs++)).toBe(1_000);
    expect(timers.size).toBe(1);
    fire(1_000);
    expect(runs).toBe(1);
    reconnect.opened(); // subscribed, then refused straight away
    expect(reconnect.failed(() => runs++)).toBe(2_000);
  });

  it("starts over after an event, or after a connection stayed open for stableMs", () => {
    const { clock, fire } = manualClock();
    const reconnect = new Reconnector(options, clock);
    reconnect.failed(() => undefined);
    reconnect.failed(() => undefined);
    reconnect.succeeded();
    expect(reconnect.failed(() => undefined)).toBe(500);
    reconnect.failed(() => undefined);
    reconnect.opened();
    fire(10_000);
    expect(reconnect.attempt).toBe(0);
    expect(reconnect.failed(() => undefined)).toBe(500);
  });
});
