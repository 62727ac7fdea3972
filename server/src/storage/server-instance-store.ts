// The running `herald serve` instances of a store, and the server-lifetime records each holds.
import type { InstanceBeat } from "../domain/server-instances.ts";
import type { Db } from "./database.ts";
import type { Prisma } from "./prisma-client/sqlite/client.ts";

const SERVER_LIFETIME = "UNTIL_SERVER_RESTART";

export class ServerInstanceStore {
  constructor(private readonly db: Db) {}

  /** Records the instance as beating at `now` (again, if a sweep took it for ended during a long pause). */
  async beat(id: string, now: Date): Promise<void> {
    await this.db.serverInstance.upsert({
      where: { id },
      create: { id, startedAt: now, heartbeatAt: now },
      update: { heartbeatAt: now },
    });
  }

  async list(): Promise<InstanceBeat[]> {
    return this.db.serverInstance.findMany({ select: { id: true, heartbeatAt: true } });
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.db.serverInstance.deleteMany({ where: { id: { in: [...ids] } } });
  }

  /** Active server-lifetime records held by one of these instances. */
  async heldBy(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    return this.activeIds({ serverInstanceId: { in: [...ids] } });
  }

  /** Active server-lifetime records held by none of these instances (or by no instance at all). */
  async heldByNoneOf(ids: readonly string[]): Promise<string[]> {
    return this.activeIds({ OR: [{ serverInstanceId: null }, { serverInstanceId: { notIn: [...ids] } }] });
  }

  private async activeIds(holder: Prisma.NotificationWhereInput): Promise<string[]> {
    const rows = await this.db.notification.findMany({
      where: { retentionPolicy: SERVER_LIFETIME, activeKey: { not: null }, ...holder },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }
}
