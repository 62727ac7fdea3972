// Server-wide values that must survive restarts, such as the cursor-signing secret.
import { randomBytes } from "node:crypto";
import * as run from "../sql/run.ts";
import type { Database } from "../connection/database.ts";

export class SettingsStore {
  constructor(private readonly database: Database) {}

  /** Returns the stored value, creating it once with `make()` (first writer wins). */
  async getOrCreate(key: string, make: () => string): Promise<string> {
    const read = () => run.first(this.database.db, "ServerSetting", this.database.build.selectFrom("ServerSetting").select("value").where("key", "=", key));
    const existing = await read();
    if (existing) return existing.value;
    await run.execute(
      this.database.db,
      this.database.build
        .insertInto("ServerSetting")
        .values({ key, value: make() })
        .onConflict((conflict) => conflict.column("key").doNothing()),
    );
    const row = await read();
    if (!row) throw new Error(`the server setting ${key} was not stored`);
    return row.value;
  }
}

export function randomSecret(): string {
  return randomBytes(32).toString("base64url");
}
