// Credentials at rest: only SHA-256 digests of the secrets (they carry 256 random bits, so a
// slow password hash would add latency to every request without adding safety).
import { createHash } from "node:crypto";
import { newRowId as newId } from "../sql/row-id.ts";
import type { Row } from "../sql/stored-values.ts";
import * as run from "../sql/run.ts";
import type { Database } from "../connection/database.ts";

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

/** A stored row with its kind typed (the whole row, digest included). */
function credentialOf(row: Row<"Credential">): CredentialRow {
  return { ...row, kind: row.kind as CredentialKind };
}

export class CredentialStore {
  constructor(private readonly database: Database) {}

  async create(input: {
    kind: CredentialKind;
    name: string;
    secret: string;
    prefix: string;
    personId: string | null;
    plugin: string | null;
  }): Promise<CredentialRow> {
    const values = {
      id: newId(),
      kind: input.kind,
      name: input.name,
      prefix: input.prefix,
      secretHash: digest(input.secret),
      personId: input.personId,
      plugin: input.plugin,
      createdAt: this.database.time(new Date()),
    };
    return credentialOf(
      await run.only(
        this.database.db,
        "Credential",
        this.database.build.insertInto("Credential").values(values).returningAll(),
        "the credential was not stored",
      ),
    );
  }

  async findBySecret(secret: string): Promise<CredentialRow | null> {
    const row = await run.first(
      this.database.db,
      "Credential",
      this.database.build.selectFrom("Credential").selectAll().where("secretHash", "=", digest(secret)),
    );
    return row ? credentialOf(row) : null;
  }

  /** Revokes by id or by the visible prefix; returns the ids it revoked. */
  async revoke(idOrPrefix: string, now: Date): Promise<string[]> {
    const { build } = this.database;
    return this.database.db.transaction(async (tx) => {
      const live = build
        .selectFrom("Credential")
        .select("id")
        .where((eb) => eb.or([eb("id", "=", idOrPrefix), eb("prefix", "=", idOrPrefix)]))
        .where("revokedAt", "is", null);
      const ids = (await run.rows(tx, "Credential", live)).map((r) => r.id);
      if (ids.length > 0) {
        await run.execute(
          tx,
          build
            .updateTable("Credential")
            .set({ revokedAt: this.database.time(now) })
            .where("id", "in", ids)
            .where("revokedAt", "is", null),
        );
      }
      return ids;
    });
  }

  /** Which of these credentials are revoked (or gone). */
  async revokedAmong(ids: readonly string[]): Promise<string[]> {
    const liveIds = new Set<string>();
    // Bounded statements however many credentials hold streams on this instance.
    for (let i = 0; i < ids.length; i += 500) {
      const live = await run.rows(
        this.database.db,
        "Credential",
        this.database.build
          .selectFrom("Credential")
          .select("id")
          .where("id", "in", ids.slice(i, i + 500))
          .where("revokedAt", "is", null),
      );
      for (const row of live) liveIds.add(row.id);
    }
    return ids.filter((id) => !liveIds.has(id));
  }
}

/** One-time sign-in codes, stored as digests like credentials. */
export class SignInCodeStore {
  constructor(private readonly database: Database) {}

  async create(personId: string, code: string, expiresAt: Date): Promise<void> {
    const values = { id: newId(), personId, codeHash: digest(code), expiresAt: this.database.time(expiresAt), createdAt: this.database.time(new Date()) };
    await run.execute(this.database.db, this.database.build.insertInto("SignInCode").values(values));
  }

  /** Marks the code used if it is valid now; returns its person, or null. Works once. */
  async redeem(code: string, now: Date): Promise<string | null> {
    const row = await run.first(this.database.db, "SignInCode", this.database.build.selectFrom("SignInCode").selectAll().where("codeHash", "=", digest(code)));
    if (!row || row.usedAt || row.expiresAt <= now) return null;
    // The conditional update is the single point that lets only one of two racing redeems win.
    const count = await run.execute(
      this.database.db,
      this.database.build
        .updateTable("SignInCode")
        .set({ usedAt: this.database.time(now) })
        .where("id", "=", row.id)
        .where("usedAt", "is", null),
    );
    return count === 1 ? row.personId : null;
  }
}
