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
  createdAt: Date;
  revokedAt: Date | null;
}

export function digest(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export class CredentialStore {
  constructor(private readonly db: Db) {}

  async create(input: { kind: CredentialKind; name: string; secret: string; prefix: string; personId: string | null }): Promise<CredentialRow> {
    const row = await this.db.credential.create({
      data: { kind: input.kind, name: input.name, prefix: input.prefix, secretHash: digest(input.secret), personId: input.personId },
    });
    return row as CredentialRow;
  }

  async findBySecret(secret: string): Promise<CredentialRow | null> {
    const row = await this.db.credential.findUnique({ where: { secretHash: digest(secret) } });
    return (row as CredentialRow | null) ?? null;
  }

  /** Revokes by id or by the visible prefix; returns how many were revoked. */
  async revoke(idOrPrefix: string, now: Date): Promise<number> {
    const { count } = await this.db.credential.updateMany({
      where: { OR: [{ id: idOrPrefix }, { prefix: idOrPrefix }], revokedAt: null },
      data: { revokedAt: now },
    });
    return count;
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
