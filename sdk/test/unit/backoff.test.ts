import { describe, expect, it } from "vitest";
import { backoffDelay } from "../../src/index.ts";

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
