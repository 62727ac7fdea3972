// Credentials at rest: only SHA-256 digests of the secrets (they carry 256 random bits, so a
// slow password hash would add latency to every request without adding safety).
import { createHash } from "node:crypto";
import type { Db } from "./database.ts";

export type CredentialKind = "PERSON_TOKEN" | "PRODUCER_KEY";

export interface CredentialRow {
  id: string;
  kind: CredentialKind;
  name: string;
  prefix: string;
  personId: string | null;
  /** The plugin a producer key is bound to; null for an admin key (and person tokens). */
  plugin: string | null;
  createdAt: Date;
  revokedAt: Date | null;
}

export function digest(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export class CredentialStore {
  constructor(private readonly db: Db) {}

  async create(input: { kind: CredentialKind; name: string; secret: string; prefix: string; personId: string | null; plugin: string | null }): Promise<CredentialRow> {
    const row = await this.db.credential.create({
      data: { kind: input.kind, name: input.name, prefix: input.prefix, secretHash: digest(input.secret), personId: input.personId, plugin: input.plugin },
    });
    return row as CredentialRow;
  }

  async findBySecret(secret: string): Promise<CredentialRow | null> {
    const row = await this.db.credential.findUnique({ where: { secretHash: digest(secret) } });
    return (row as CredentialRow | null) ?? null;
  }

  /** Revokes by id or by the visible prefix; returns the ids it revoked. */
  async revoke(idOrPrefix: string, now: Date): Promise<string[]> {
    const where = { OR: [{ id: idOrPrefix }, { prefix: idOrPrefix }], revokedAt: null };
    return this.db.$transaction(async (tx) => {
      const rows = await tx.credential.findMany({ where, select: { id: true } });
      const ids = rows.map((r) => r.id);
      if (ids.length > 0) await tx.credential.updateMany({ where: { id: { in: ids }, revokedAt: null }, data: { revokedAt: now } });
      return ids;
    });
  }

  /** Which of these credentials are revoked (or gone). */
  async revokedAmong(ids: readonly string[]): Promise<string[]> {
    const liveIds = new Set<string>();
    // Bounded statements however many credentials hold streams on this instance.
    for (let i = 0; i < ids.length; i += 500) {
      const live = await this.db.credential.findMany({ where: { id: { in: ids.slice(i, i + 500) }, revokedAt: null }, select: { id: true } });
      for (const row of live) liveIds.add(row.id);
    }
    return ids.filter((id) => !liveIds.has(id));
  }
}

/** One-time sign-in codes, stored as digests like credentials. */
export class SignInCodeStore {
  constructor(private readonly db: Db) {}

  async create(personId: string, code: string, expiresAt: Date): Promise<void> {
    await this.db.signInCode.create({ data: { personId, codeHash: digest(code), expiresAt } });
  }

  /** Marks the code used if it is valid now; returns its person, or null. Works once. */
  async redeem(code: string, now: Date): Promise<string | null> {
    const row = await this.db.signInCode.findUnique({ where: { codeHash: digest(code) } });
    if (!row || row.usedAt || row.expiresAt <= now) return null;
    // The conditional update is the single point that lets only one of two racing redeems win.
    const { count } = await this.db.signInCode.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: now } });
    return count === 1 ? row.personId : null;
  }
}
