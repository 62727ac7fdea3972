// Server-wide values that must survive restarts, such as the cursor-signing secret.
import { randomBytes } from "node:crypto";
import { type Db, isUniqueViolation } from "./database.ts";

export class SettingsStore {
  constructor(private readonly db: Db) {}

  /** Returns the stored value, creating it once with `make()` (first writer wins). */
  async getOrCreate(key: string, make: () => string): Promise<string> {
    const existing = await this.db.serverSetting.findUnique({ where: { key } });
    if (existing) return existing.value;
    await this.db.serverSetting.create({ data: { key, value: make() } }).catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
    });
    const row = await this.db.serverSetting.findUniqueOrThrow({ where: { key } });
    return row.value;
  }
}

export function randomSecret(): string {
  return randomBytes(32).toString("base64url");
}
