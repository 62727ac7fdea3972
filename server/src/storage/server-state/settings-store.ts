// Server-wide values that must survive restarts, such as the cursor-signing secret.
import { randomBytes } from "node:crypto";
import { StoreBase } from "../sql/store-base.ts";

export class SettingsStore extends StoreBase {
  /** Returns the stored value, creating it once with `make()` (first writer wins). */
  async getOrCreate(key: string, make: () => string): Promise<string> {
    const read = () => this.q.first(this.db, "ServerSetting", this.q.build.selectFrom("ServerSetting").select("value").where("key", "=", key));
    const existing = await read();
    if (existing) return existing.value;
    await this.q.execute(this.db, this.q.build.insertInto("ServerSetting").values({ key, value: make() }).onConflict((conflict) => conflict.column("key").doNothing()));
    const row = await read();
    if (!row) throw new Error(`the server setting ${key} was not stored`);
    return row.value;
  }
}

export function randomSecret(): string {
  return randomBytes(32).toString("base64url");
}
