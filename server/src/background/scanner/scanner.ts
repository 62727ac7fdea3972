// The periodic trigger scanner: every interval, one instance of the deployment (the one that
// claims the cycle) evaluates every person, connected or not, except those in quiet mode.
// Cycles are named by the injectable clock, so tests move time instead of waiting.
import { randomUUID } from "node:crypto";
import type { Clock } from "../../domain/clock.ts";
import type { Logger } from "../../logger.ts";
import type { NotificationService } from "../../service/notification-service.ts";
import type { ScanService } from "../../service/scan-service.ts";
import { scanDates } from "./date-scan.ts";
import { scanEngagements } from "./engagement-scan.ts";
import type { ScanDeps } from "./scan-deps.ts";

export interface ScannerOptions {
  intervalMs: number;
  dateLeadDays: number;
  staleEngagementDays: number;
}

export interface CycleReport {
  facts: number;
  engagements: number;
  created: number;
}

const LEASE = "trigger-scanner";

export class TriggerScanner {
  private readonly holder = randomUUID();
  private readonly deps: ScanDeps;
  private running: Promise<CycleReport | null> | null = null;

  constructor(
    scan: ScanService,
    notifications: NotificationService,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: ScannerOptions,
  ) {
    this.deps = { scan, notifications, pause: () => new Promise((resolve) => setImmediate(resolve)) };
  }

  /** Runs this interval's cycle if no instance has claimed it yet; null when one has. */
  tick(): Promise<CycleReport | null> {
    // A cycle still running when the next is due finishes first; the next waits its turn.
    this.running ??= this.claimAndRun().finally(() => (this.running = null));
    return this.running;
  }

  private async claimAndRun(): Promise<CycleReport | null> {
    const now = this.clock.now();
    const cycleStart = new Date(Math.floor(now.getTime() / this.options.intervalMs) * this.options.intervalMs);
    if (!(await this.deps.scan.claimCycle(LEASE, cycleStart, this.holder, now))) return null;
    return this.runCycle(now);
  }

  /** One full cycle at `now`, without the lease (tick() is the normal entry point). */
  async runCycle(now: Date): Promise<CycleReport> {
    const dates = await scanDates(this.deps, now, this.options.dateLeadDays);
    const engagements = await scanEngagements(this.deps, now, this.options.staleEngagementDays);
    const report = { facts: dates.checked, engagements: engagements.checked, created: dates.created + engagements.created };
    this.logger.debug(report, "trigger scan done");
    return report;
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
