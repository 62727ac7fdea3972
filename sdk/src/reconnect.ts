// When a dropped stream tries again: one attempt per backoff step (exponential, full jitter,
// capped), and back to the first step only once a connection has proven itself (an event
// arrived, or it stayed open for `stableMs`). Resetting on a mere "subscribed" let a server that
// refuses every stream at once be knocked on several times a second.
import { backoffDelay, type BackoffOptions } from "./backoff.ts";

/** Timers and randomness, injectable so tests can step through the schedule without waiting. */
export interface ReconnectClock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  random(): number;
}

export const systemClock: ReconnectClock = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  random: () => Math.random(),
};

export interface ReconnectOptions extends BackoffOptions {
  /** A connection open this long without failing counts as a success. */
  stableMs: number;
}

export const DEFAULT_RECONNECT: ReconnectOptions = { initialMs: 250, maxMs: 30_000, stableMs: 10_000 };

export class Reconnector {
  /** Failures since the last success; the next delay is drawn for this step. */
  attempt = 0;
  private retryTimer: unknown = null;
  private stableTimer: unknown = null;

  constructor(
    private readonly options: ReconnectOptions = DEFAULT_RECONNECT,
    private readonly clock: ReconnectClock = systemClock,
  ) {}

  /** Whether an attempt is waiting for its turn. */
  get waiting(): boolean {
    return this.retryTimer !== null;
  }

  /** A failure: counts a step and runs `retry` once after that step's delay (replacing any waiting one). */
  failed(retry: () => void): number {
    this.cancelStable();
    this.cancel();
    this.attempt++;
    const delay = backoffDelay(this.attempt, this.options, this.clock.random);
    this.retryTimer = this.clock.setTimeout(() => {
      this.retryTimer = null;
      retry();
    }, delay);
    return delay;
  }

  /** A connection is open: it counts as a success once it stays up for `stableMs`. */
  opened(): void {
    this.cancelStable();
    if (this.attempt === 0) return;
    this.stableTimer = this.clock.setTimeout(() => {
      this.stableTimer = null;
      this.attempt = 0;
    }, this.options.stableMs);
  }

  /** Proof the connection works (data arrived): the next failure starts from the first step. */
  succeeded(): void {
    this.cancelStable();
    this.attempt = 0;
  }

  /** Drops a waiting attempt (stopping, or trying now instead). */
  cancel(): void {
    if (this.retryTimer !== null) this.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Forgets the failures (a refresh or the network coming back) and any waiting attempt. */
  reset(): void {
    this.cancel();
    this.cancelStable();
    this.attempt = 0;
  }

  private cancelStable() {
    if (this.stableTimer !== null) this.clock.clearTimeout(this.stableTimer);
    this.stableTimer = null;
  }
}
