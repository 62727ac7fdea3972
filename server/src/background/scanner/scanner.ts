// The periodic trigger scanner: every interval, one instance of the deployment (the one that
// claims the cycle) evaluates every person, connected or not, except those in quiet mode.
// Cycles are named by the injectable clock, so tests move time instead of waiting.
//
// A cycle selects first (reads and rules only, on the selection thread: selection-thread.ts), then
// raises what is due in batches on this thread, the one writer, resting between batches.
import { randomUUID } from "node:crypto";
import type { Clock } from "../../domain/clock.ts";
import type { Logger } from "../../logger.ts";
import type { NotificationService } from "../../service/notification-service.ts";
import type { ScanService } from "../../service/scan-service.ts";
import { pauseForRequests, raiseInBatches } from "./scan-deps.ts";
import type { Selector } from "./selection-thread.ts";
import type { Selection } from "./selection.ts";

export interface ScannerOptions {
  intervalMs: number;
}

export interface CycleReport {
  facts: number;
  engagements: number;
  created: number;
  /** The thread that selected: 0 is the request thread (only for an in-memory store). */
  selectedOn: number;
  /** Milliseconds per step: selection (facts, engagements, unfired), raising, the whole cycle. */
  timings: Selection["timings"] & { select: number; raise: number; total: number };
}

const LEASE = "trigger-scanner";

export class TriggerScanner {
  private readonly holder = randomUUID();
  private running: Promise<CycleReport | null> | null = null;

  constructor(
    private readonly scan: ScanService,
    private readonly selector: Selector,
    private readonly notifications: NotificationService,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: ScannerOptions,
  ) {}

  /** Runs this interval's cycle if no instance has claimed it yet; null when one has. */
  tick(): Promise<CycleReport | null> {
    // A cycle still running when the next is due finishes first; the next waits its turn.
    this.running ??= this.claimAndRun().finally(() => (this.running = null));
    return this.running;
  }

  private async claimAndRun(): Promise<CycleReport | null> {
    const now = this.clock.now();
    const cycleStart = new Date(Math.floor(now.getTime() / this.options.intervalMs) * this.options.intervalMs);
    if (!(await this.scan.claimCycle(LEASE, cycleStart, this.holder, now))) return null;
    return this.runCycle(now);
  }

  /** One full cycle at `now`, without the lease (tick() is the normal entry point). */
  async runCycle(now: Date): Promise<CycleReport> {
    const started = performance.now();
    // Facts stored before the current date extractor: rare (an upgrade), and writes, so here.
    await this.scan.extractOutdatedDates(pauseForRequests);
    const selection = await this.selector.select(now);
    const selected = performance.now();
    const created = await raiseInBatches(this.notifications, selection.due, pauseForRequests);
    const done = performance.now();
    const report: CycleReport = {
      facts: selection.facts,
      engagements: selection.engagements,
      created,
      selectedOn: selection.threadId,
      timings: { ...selection.timings, select: selected - started, raise: done - selected, total: done - started },
    };
    this.logger.debug(report, "trigger scan done");
    return report;
  }

  /** Waits for a cycle in progress, then stops the selection thread. */
  async close(): Promise<void> {
    await this.running?.catch(() => undefined);
    await this.selector.close();
  }

  /** Ticks every interval until the returned stop() (awaiting a cycle in progress). */
  start(): () => Promise<void> {
    const timer = setInterval(() => {
      this.tick().catch((error: Error) => this.logger.warn({ err: error.message }, "trigger scan failed; the next cycle retries"));
    }, this.options.intervalMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await this.running?.catch(() => undefined);
    };
  }
}
