// The running `herald serve` instances of a store, and the server-lifetime records each holds.
import type { InstanceBeat } from "../../domain/server-instances.ts";
import { StoreBase } from "../sql/store-base.ts";

const SERVER_LIFETIME = "UNTIL_SERVER_RESTART";

export class ServerInstanceStore extends StoreBase {
  /** Records the instance as beating at `now` (again, if a sweep took it for ended during a long pause). */
  async beat(id: string, now: Date): Promise<void> {
    const at = this.q.time(now);
    await this.q.execute(
      this.db,
      this.q.build
        .insertInto("ServerInstance")
        .values({ id, startedAt: at, heartbeatAt: at })
        .onConflict((conflict) => conflict.column("id").doUpdateSet({ heartbeatAt: at })),
    );
  }

  async list(): Promise<InstanceBeat[]> {
    return this.q.rows(this.db, "ServerInstance", this.q.build.selectFrom("ServerInstance").select(["id", "heartbeatAt"]));
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.q.execute(this.db, this.q.build.deleteFrom("ServerInstance").where("id", "in", ids));
  }

  /** Active server-lifetime records held by one of these instances. */
  async heldBy(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    return this.activeIds(this.lifetimeRecords().where("serverInstanceId", "in", ids));
  }

  /** Active server-lifetime records held by none of these instances (or by no instance at all). */
  async heldByNoneOf(ids: readonly string[]): Promise<string[]> {
    const records = this.lifetimeRecords();
    if (ids.length === 0) return this.activeIds(records);
    return this.activeIds(records.where((eb) => eb.or([eb("serverInstanceId", "is", null), eb("serverInstanceId", "not in", ids)])));
  }

  private lifetimeRecords() {
    return this.q.build.selectFrom("Notification").select("id").where("retentionPolicy", "=", SERVER_LIFETIME).where("activeKey", "is not", null);
  }

  private async activeIds(query: ReturnType<ServerInstanceStore["lifetimeRecords"]>): Promise<string[]> {
    const rows = await this.q.raw(this.db, query);
    return rows.map((r) => String(r.id));
  }
}
