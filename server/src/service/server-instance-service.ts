// This process as one instance of a deployment: its row and heartbeat, and the end of the
// server-lifetime records whose instance has ended (docs/decisions.md, "Retention").
import type { Clock } from "../domain/clock.ts";
import { holderEnded, type LifetimeSweep, staleInstanceIds } from "../domain/server-instances.ts";
import type { ServerInstanceStore } from "../storage/server-state/server-instance-store.ts";
import type { NotificationService } from "./notification-service.ts";

export interface ServerInstanceOptions {
  /** This process's instance id (random per start). */
  id: string;
  /** A heartbeat older than this means the instance stopped without a clean shutdown. */
  graceMs: number;
}

export class ServerInstanceService {
  constructor(
    private readonly store: ServerInstanceStore,
    private readonly notifications: NotificationService,
    private readonly clock: Clock,
    private readonly options: ServerInstanceOptions,
  ) {}

  get id(): string {
    return this.options.id;
  }

  /** Records this instance (at start, before it takes traffic) or its next heartbeat. */
  beat(): Promise<void> {
    return this.store.beat(this.options.id, this.clock.now());
  }

  /**
   * At start: ends the records of instances that are gone or stale, and those from before
   * instances were recorded. Periodically: those of instances whose heartbeat is older than the
   * grace, whose rows then go. Returns how many records expired.
   */
  async expireEnded(sweep: Exclude<LifetimeSweep, "stop">): Promise<number> {
    const now = this.clock.now();
    const instances = await this.store.list();
    const stale = staleInstanceIds(instances, this.options.id, now, this.options.graceMs);
    const candidates =
      sweep === "start" ? await this.store.heldByNoneOf(instances.filter((i) => !stale.includes(i.id)).map((i) => i.id)) : await this.store.heldBy(stale);
    const expired = await this.expire(sweep, candidates);
    // After their records: a sweep that fails halfway leaves the rows for the next one.
    await this.store.remove(stale);
    return expired;
  }

  /** At a clean stop: ends this instance's own records, then its row. Returns how many expired. */
  async stop(): Promise<number> {
    const expired = await this.expire("stop", await this.store.heldBy([this.options.id]));
    await this.store.remove([this.options.id]);
    return expired;
  }

  private expire(sweep: LifetimeSweep, ids: string[]): Promise<number> {
    const { id, graceMs } = this.options;
    return this.notifications.expireServerLifetime(ids, (holder, now) => holderEnded(sweep, holder, id, now, graceMs));
  }
}
