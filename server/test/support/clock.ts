import type { Clock } from "@herald/server/domain/clock";

/** A clock tests move by hand; it starts at the real time so stored dates look ordinary. */
export class TestClock implements Clock {
  private current = Date.now();
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
  /** Moves forward by 1 ms per call, so consecutive records get distinct, ordered createdAt. */
  tick(): Date {
    this.current += 1;
    return this.now();
  }
}
