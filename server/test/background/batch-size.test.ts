// How the scanner sizes its write batches from the event-loop time the previous one took.
import { describe, expect, it } from "vitest";
import { BATCH_BUSY_MS, nextBatchSize, RAISE_BATCH } from "../../src/background/scanner/scan-deps.ts";

describe("the scanner's batch size", () => {
  it("keeps a batch that took the target time", () => {
    expect(nextBatchSize(40, BATCH_BUSY_MS)).toBe(40);
  });
  it("shrinks a batch that kept the thread busy too long, at most halving", () => {
    expect(nextBatchSize(40, BATCH_BUSY_MS * 1.6)).toBe(25);
    expect(nextBatchSize(40, BATCH_BUSY_MS * 100)).toBe(20);
  });
  it("grows a cheap batch, at most doubling, as on PostgreSQL where a batch mostly waits", () => {
    expect(nextBatchSize(40, BATCH_BUSY_MS / 1.25)).toBe(50);
    expect(nextBatchSize(40, 0)).toBe(80);
  });
  it("stays within its bounds", () => {
    expect(nextBatchSize(RAISE_BATCH.min, BATCH_BUSY_MS * 10)).toBe(RAISE_BATCH.min);
    expect(nextBatchSize(RAISE_BATCH.max, 0)).toBe(RAISE_BATCH.max);
  });
});
