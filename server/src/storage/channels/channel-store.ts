// A person's channels at rest. The secrets a sender needs (push keys, ntfy token, webhook signing
// secret) are kept encrypted with the server's channel key (AES-256-GCM); nothing here ever hands
// one to a reader of the channel, only to the delivery worker (secretOf).
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { type Channel, type ChannelKind, type ChannelRules, type ChannelSecret, severityOfRank, severityRank } from "../../domain/channels.ts";
import { type NotificationScope, NotificationScopes } from "../../domain/enums.ts";
import type { Database } from "../connection/database.ts";
import { isUniqueViolation } from "../connection/database.ts";
import { newRowId } from "../sql/row-id.ts";
import { forUpdate } from "../sql/sql.ts";
import type { Row } from "../sql/stored-values.ts";
import * as run from "../sql/run.ts";

export class DuplicateChannel extends Error {}
/** The person already has as many channels as they may. */
export class ChannelLimitReached extends Error {}

export class ChannelStore {
  constructor(
    private readonly database: Database,
    /** 32 bytes: the key channel secrets are encrypted with (a server setting, created once). */
    private readonly key: Buffer,
  ) {}

  /**
   * Adds a channel unless the person already has `limit`: counted and inserted in one transaction,
   * one at a time per person (the person row locked on PostgreSQL, SQLite's writer lock), so
   * requests sent at once cannot pass the limit together.
   */
  async add(
    limit: number,
    input: {
      personId: string;
      kind: ChannelKind;
      label: string;
      url: string;
      secret: ChannelSecret;
      rules: ChannelRules;
      now: Date;
    },
  ): Promise<Channel> {
    const { build, provider } = this.database;
    const values = {
      id: newRowId(),
      personId: input.personId,
      kind: input.kind,
      label: input.label,
      url: input.url,
      secret: this.seal(input.secret),
      ...rulesColumns(input.rules),
      createdAt: this.database.time(input.now),
    };
    try {
      return await this.database.db.transaction(async (tx) => {
        if (provider === "postgresql") await run.raw(tx, build.selectFrom("Person").select("id").where("id", "=", input.personId).forUpdate());
        const [count] = await run.raw(
          tx,
          build
            .selectFrom("Channel")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("personId", "=", input.personId),
        );
        if (Number(count?.n ?? 0) >= limit) throw new ChannelLimitReached();
        return channelOf(await run.only(tx, "Channel", build.insertInto("Channel").values(values).returningAll(), "the channel was not stored"));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateChannel();
      throw error;
    }
  }

  /** A browser that subscribes again with the same endpoint gets its keys renewed, not a second channel. */
  async renewPushKeys(personId: string, url: string, secret: ChannelSecret, label: string): Promise<Channel | null> {
    const row = await run.first(
      this.database.db,
      "Channel",
      this.database.build
        .updateTable("Channel")
        .set({ secret: this.seal(secret), label, failing: false })
        .where("personId", "=", personId)
        .where("url", "=", url)
        .where("kind", "=", "WEB_PUSH")
        .returningAll(),
    );
    return row ? channelOf(row) : null;
  }

  async listOf(personId: string): Promise<Channel[]> {
    const rows = await run.rows(
      this.database.db,
      "Channel",
      this.database.build.selectFrom("Channel").selectAll().where("personId", "=", personId).orderBy("createdAt").orderBy("id"),
    );
    return rows.map(channelOf);
  }

  /** One channel of this person; null when absent or another person's. */
  async findOwn(personId: string, id: string): Promise<Channel | null> {
    const row = await run.first(
      this.database.db,
      "Channel",
      this.database.build.selectFrom("Channel").selectAll().where("id", "=", id).where("personId", "=", personId),
    );
    return row ? channelOf(row) : null;
  }

  async findById(id: string): Promise<Channel | null> {
    const row = await run.first(this.database.db, "Channel", this.database.build.selectFrom("Channel").selectAll().where("id", "=", id));
    return row ? channelOf(row) : null;
  }

  /** Several channels by id (the worker's batch). */
  async findMany(ids: readonly string[]): Promise<Map<string, { channel: Channel; secret: ChannelSecret }>> {
    const found = new Map<string, { channel: Channel; secret: ChannelSecret }>();
    if (ids.length === 0) return found;
    const rows = await run.rows(
      this.database.db,
      "Channel",
      this.database.build
        .selectFrom("Channel")
        .selectAll()
        .where("id", "in", [...new Set(ids)]),
    );
    for (const row of rows) found.set(row.id, { channel: channelOf(row), secret: this.open(row.secret) });
    return found;
  }

  /**
   * Changes one of this person's channels' rules as `change` says, given the ones stored: read and
   * written in one transaction (the row locked on PostgreSQL), so two patches at once both stay.
   * Null when the channel is not theirs or is gone; a `change` that throws changes nothing.
   */
  async changeRules(personId: string, id: string, change: (rules: ChannelRules) => ChannelRules): Promise<Channel | null> {
    const { build, provider } = this.database;
    return this.database.db.transaction(async (tx) => {
      const read = build.selectFrom("Channel").selectAll().where("id", "=", id).where("personId", "=", personId);
      const row = await run.first(tx, "Channel", forUpdate(provider, read));
      if (!row) return null;
      const rules = change(channelOf(row).rules);
      const updated = await run.first(tx, "Channel", build.updateTable("Channel").set(rulesColumns(rules)).where("id", "=", id).returningAll());
      return updated ? channelOf(updated) : null;
    });
  }

  /** Removes one of this person's channels (its deliveries go with it); false when it was not theirs or is gone. */
  async remove(personId: string, id: string): Promise<boolean> {
    return (await run.execute(this.database.db, this.database.build.deleteFrom("Channel").where("id", "=", id).where("personId", "=", personId))) > 0;
  }

  /** A push service said the subscription is gone. */
  async removeGone(id: string): Promise<void> {
    await run.execute(this.database.db, this.database.build.deleteFrom("Channel").where("id", "=", id).where("kind", "=", "WEB_PUSH"));
  }

  async markSent(id: string, at: Date): Promise<void> {
    await run.execute(
      this.database.db,
      this.database.build
        .updateTable("Channel")
        .set({ failing: false, lastDeliveryAt: this.database.time(at) })
        .where("id", "=", id),
    );
  }

  async markFailing(id: string): Promise<void> {
    await run.execute(this.database.db, this.database.build.updateTable("Channel").set({ failing: true }).where("id", "=", id));
  }

  private seal(secret: ChannelSecret): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const sealed = Buffer.concat([cipher.update(JSON.stringify(secret), "utf8"), cipher.final()]);
    return `v1.${iv.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}.${sealed.toString("base64url")}`;
  }

  private open(stored: string): ChannelSecret {
    const [version, iv, tag, sealed] = stored.split(".");
    if (version !== "v1" || !iv || !tag || sealed === undefined) throw new Error("a channel secret is not in a known form");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return JSON.parse(Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8")) as ChannelSecret;
  }
}

function rulesColumns(rules: ChannelRules) {
  return { minSeverity: severityRank(rules.minSeverity), scopes: rules.scopes.join(","), delaySeconds: rules.delaySeconds };
}

function channelOf(row: Row<"Channel">): Channel {
  const scopes = row.scopes.split(",").filter((s): s is NotificationScope => (NotificationScopes as readonly string[]).includes(s));
  return {
    id: row.id,
    personId: row.personId,
    kind: row.kind as ChannelKind,
    label: row.label,
    url: row.url,
    rules: { minSeverity: severityOfRank(Number(row.minSeverity)), scopes, delaySeconds: Number(row.delaySeconds) },
    failing: Boolean(row.failing),
    lastDeliveryAt: row.lastDeliveryAt,
    createdAt: row.createdAt,
  };
}
