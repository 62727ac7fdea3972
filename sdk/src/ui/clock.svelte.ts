// The page's one clock. Everything that depends on time (relative times, snooze filters, TTL
// deadlines passing while a record is shown) reads `now` from here, and it reads only Date.now()
// and setTimeout, so a test drives it with Playwright's page.clock.
import { pastDeadline, type Notification } from "@herald/sdk";

/** Relative times and snooze filters stay right to within this. */
const TICK_MS = 15_000;

export class Clock {
  now = $state(Date.now());
  private tick: ReturnType<typeof setInterval> | null = null;
  private wake: ReturnType<typeof setTimeout> | null = null;
  private wakeFor: number | null = null;

  /** Browser only: ticks until the returned cleanup runs. */
  start(): () => void {
    this.tick = setInterval(() => this.sync(), TICK_MS);
    return () => {
      if (this.tick) clearInterval(this.tick);
      if (this.wake) clearTimeout(this.wake);
      this.tick = this.wake = null;
    };
  }

  /** Moves `now` to the present (a change just arrived, or a deadline passed). */
  sync(): void {
    this.now = Date.now();
  }

  /**
   * Wakes at `at` (ms since the epoch), the next moment something shown changes by itself (a TTL
   * deadline), instead of up to a tick later; null cancels. Only the earliest wake is kept.
   */
  wakeAt(at: number | null): void {
    if (at === this.wakeFor) return;
    if (this.wake) clearTimeout(this.wake);
    this.wake = null;
    this.wakeFor = at;
    if (at === null) return;
    this.wake = setTimeout(
      () => {
        this.wake = null;
        this.wakeFor = null;
        this.sync();
      },
      Math.max(0, at - Date.now()),
    );
  }
}

/** The earliest TTL deadline still ahead among `items` (null: none). */
export function nextDeadline(items: readonly Pick<Notification, "retention">[], now: number): number | null {
  let next: number | null = null;
  for (const n of items) {
    if (n.retention.policy !== "TTL" || !n.retention.expiresAt || pastDeadline(n, now)) continue;
    const at = Date.parse(n.retention.expiresAt);
    if (next === null || at < next) next = at;
  }
  return next;
}
