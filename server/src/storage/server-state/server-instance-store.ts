// The running `herald serve` instances of a store, and the server-lifetime records each holds.
import type { InstanceBeat } from "../../domain/server-instances.ts";
import * as run from "../sql/run.ts";
import type { Database } from "../connection/database.ts";

const SERVER_LIFETIME = "UNTIL_SERVER_RESTART";

export class ServerInstanceStore {
  constructor(private readonly database: Database) {}

  /** Records the instance as beating at `now` (again, if a sweep took it for ended during a long pause). */
  async beat(id: string, now: Date): Promise<void> {
    const at = this.database.time(now);
    await run.execute(
      this.database.db,
      this.database.build
        .insertInto("ServerInstance")
        .values({ id, startedAt: at, heartbeatAt: at })
        .onConflict((conflict) => conflict.column("id").doUpdateSet({ heartbeatAt: at })),
    );
  }

  async list(): Promise<InstanceBeat[]> {
    return run.rows(this.database.db, "ServerInstance", this.database.build.selectFrom("ServerInstance").select(["id", "heartbeatAt"]));
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await run.execute(this.database.db, this.database.build.deleteFrom("ServerInstance").where("id", "in", ids));
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
    return this.database.build.selectFrom("Notification").select("id").where("retentionPolicy", "=", SERVER_LIFETIME).where("activeKey", "is not", null);
  }

  private async activeIds(query: ReturnType<ServerInstanceStore["lifetimeRecords"]>): Promise<string[]> {
    const rows = await run.raw(this.database.db, query);
    return rows.map((r) => String(r.id));
  }
}
