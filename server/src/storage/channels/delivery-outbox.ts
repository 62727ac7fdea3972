// The durable outbox of channel deliveries (docs/channels.md). A revision's deliveries are one
// INSERT ... SELECT over the channels its rules select, written in the revision's own
// transaction (outboxWrite, used by NotificationTx); the delivery worker then claims due rows
// with a lease (on PostgreSQL FOR UPDATE SKIP LOCKED, so instances never claim one row twice) and
// records each outcome under that lease.
import { createHash } from "node:crypto";
import { sql } from "kysely";
import { type ChannelDelivery, type DeliveryStatus, type DeliveryType, severityRank } from "../../domain/channels.ts";
import type { NotificationScope } from "../../domain/enums.ts";
import type { NotificationRecord } from "../../domain/notification.ts";
import type { Provider } from "../connection/database.ts";
import { shapedStatement } from "../sql/shaped.ts";
import { sqlFor, storedTime } from "../sql/sql.ts";
import type { RowWrite, WriteBuilder } from "../sql/statement-runner.ts";
import { decodeRow, type Row } from "../sql/stored-values.ts";
import * as run from "../sql/run.ts";
import type { Database } from "../connection/database.ts";

/**
 * The deliveries a new revision causes, as one write of its transaction: one row per channel
 * whose rules select the record (person, scope, severity), due after the channel's delay. A
 * retried transaction or a second write of the same revision adds nothing (one per channel and revision).
 */
export function outboxWrite(provider: Provider, record: NotificationRecord, type: DeliveryType, now: Date): RowWrite {
  const values = {
    idSuffix: `.${record.id}.${record.revision}`,
    notificationId: record.id,
    revision: record.revision,
    type,
    nowMs: now.getTime(),
    createdAt: now,
    severity: severityRank(record.severity),
    personId: record.personId ?? "",
  };
  return { statement: outboxInsert(provider, { scope: record.scope }, values)!, rows: null };
}

interface OutboxValues {
  idSuffix: string;
  notificationId: string;
  revision: number;
  type: DeliveryType;
  nowMs: number;
  createdAt: Date;
  severity: number;
  personId: string;
}

/** Compiled once per scope (sql/shaped.ts): it runs with every publish. */
const outboxInsert = shapedStatement<{ scope: NotificationScope }, OutboxValues, WriteBuilder>((provider, shape, v) => {
  const b = sqlFor(provider);
  let channels = b
    .selectFrom("Channel")
    .select((eb) => [
      sql<string>`"Channel"."id" || ${v.idSuffix}`.as("id"),
      eb.ref("Channel.id").as("channelId"),
      eb.ref("Channel.personId").as("personId"),
      sql<string>`${v.notificationId}`.as("notificationId"),
      sql<number>`${v.revision}`.as("revision"),
      sql<string>`${v.type}`.as("type"),
      sql<number>`CAST(${v.nowMs} AS bigint) + "Channel"."delaySeconds" * 1000`.as("dueAt"),
      storedTime(provider, v.createdAt).as("createdAt"),
    ])
    .where("Channel.minSeverity", "<=", v.severity)
    // A literal (the scope is part of the shape): SQLite prepares a statement again at every run
    // whose LIKE pattern is a bound value (it may choose another plan for it), about 90 µs a publish.
    .where("Channel.scopes", "like", sql.lit(`%${shape.scope}%`));
  if (shape.scope !== "APPLICATION") channels = channels.where("Channel.personId", "=", v.personId);
  return b
    .insertInto("ChannelDelivery")
    .columns(["id", "channelId", "personId", "notificationId", "revision", "type", "dueAt", "createdAt"])
    .expression(channels)
    .onConflict((conflict) => conflict.doNothing());
});

/** What an attempt (or a send-time check) decided for a claimed delivery. */
export type DeliveryUpdate =
  | { status: "SENT"; attempts: number; sentAt: Date }
  | { status: "FAILED" | "SKIPPED"; attempts: number; lastError: string }
  /** Stays pending: tried again (attempts counted) or held (attempts unchanged) at `dueAt`. */
  | { status: "PENDING"; attempts: number; lastError: string | null; dueAt: number };

export interface DeliveryWithChannel extends ChannelDelivery {
  channel: { id: string; kind: string; label: string };
}

export class DeliveryOutbox {
  constructor(private readonly database: Database) {}

  /**
   * Claims up to `limit` due deliveries for `holder` until `leaseUntil`: pending, due, and not
   * leased by a live holder. One statement: on PostgreSQL the rows are picked FOR UPDATE SKIP
   * LOCKED, so concurrent claims of several instances take disjoint rows; SQLite has one writer.
   */
  async claim(holder: string, now: number, leaseUntil: number, limit: number): Promise<ChannelDelivery[]> {
    const b = this.database.build;
    let due = b
      .selectFrom("ChannelDelivery")
      .select("id")
      .where("status", "=", "PENDING")
      .where("dueAt", "<=", now as never)
      .where((eb) => eb.or([eb("leaseUntil", "is", null), eb("leaseUntil", "<=", now as never)]))
      .orderBy("dueAt")
      .limit(limit);
    if (this.database.provider === "postgresql") due = due.forUpdate().skipLocked();
    const rows = await run.rows(
      this.database.db,
      "ChannelDelivery",
      b
        .updateTable("ChannelDelivery")
        .set({ leaseHolder: holder, leaseUntil: leaseUntil as never })
        .where("id", "in", due)
        .returningAll(),
    );
    return rows.map(deliveryOf).sort((x, y) => x.dueAt - y.dueAt);
  }

  /** Records an outcome, only while `holder` still holds the lease (else another instance took the row over). */
  async settle(id: string, holder: string, update: DeliveryUpdate): Promise<boolean> {
    const set: Record<string, unknown> = { status: update.status, attempts: update.attempts, leaseHolder: null, leaseUntil: null };
    if (update.status === "SENT") Object.assign(set, { sentAt: this.database.time(update.sentAt), lastError: null });
    else if (update.status === "PENDING") Object.assign(set, { lastError: update.lastError, dueAt: update.dueAt });
    else set.lastError = update.lastError;
    const changed = await run.execute(
      this.database.db,
      this.database.build
        .updateTable("ChannelDelivery")
        .set(set as never)
        .where("id", "=", id)
        .where("leaseHolder", "=", holder),
    );
    return changed > 0;
  }

  /** A channel's test send, due now. */
  async insertTest(channel: { id: string; personId: string }, id: string, now: Date): Promise<ChannelDelivery> {
    const row = await run.only(
      this.database.db,
      "ChannelDelivery",
      this.database.build
        .insertInto("ChannelDelivery")
        .values({
          id,
          channelId: channel.id,
          personId: channel.personId,
          notificationId: null,
          revision: 0,
          type: "channel.test",
          dueAt: now.getTime() as never,
          createdAt: this.database.time(now),
        })
        .returningAll(),
      "the test delivery was not stored",
    );
    return deliveryOf(row);
  }

  async findById(id: string): Promise<ChannelDelivery | null> {
    const row = await run.first(this.database.db, "ChannelDelivery", this.database.build.selectFrom("ChannelDelivery").selectAll().where("id", "=", id));
    return row ? deliveryOf(row) : null;
  }

  /** One person's deliveries of one notification, oldest first, with the channel each went to. */
  async ofNotification(notificationId: string, personId: string): Promise<DeliveryWithChannel[]> {
    const rows = await run.raw(
      this.database.db,
      this.database.build
        .selectFrom("ChannelDelivery")
        .innerJoin("Channel", "Channel.id", "ChannelDelivery.channelId")
        .selectAll("ChannelDelivery")
        .select(["Channel.kind as channelKind", "Channel.label as channelLabel"])
        .where("ChannelDelivery.notificationId", "=", notificationId)
        .where("ChannelDelivery.personId", "=", personId)
        .orderBy("ChannelDelivery.createdAt")
        .orderBy("ChannelDelivery.id")
        .limit(200),
    );
    return rows.map((raw) => ({
      ...deliveryOf(decodeRow("ChannelDelivery", raw)),
      channel: { id: String(raw.channelId), kind: String(raw.channelKind), label: String(raw.channelLabel) },
    }));
  }

  /** A person's latest deliveries across their channels (the settings page's "recent"). */
  async recentOf(personId: string, limit: number): Promise<ChannelDelivery[]> {
    const rows = await run.rows(
      this.database.db,
      "ChannelDelivery",
      this.database.build
        .selectFrom("ChannelDelivery")
        .selectAll()
        .where("personId", "=", personId)
        .orderBy("createdAt", "desc")
        .orderBy("id", "desc")
        .limit(limit),
    );
    return rows.map(deliveryOf);
  }

  /** Pending deliveries of one person held for quiet mode: due again now (quiet mode ended). */
  async releaseHeld(personId: string, now: number): Promise<number> {
    return run.execute(
      this.database.db,
      this.database.build
        .updateTable("ChannelDelivery")
        .set({ dueAt: now as never })
        .where("personId", "=", personId)
        .where("status", "=", "PENDING")
        .where("dueAt", ">", now as never)
        .where("lastError", "like", sql.lit("held:%")),
    );
  }

  /** Finished deliveries older than `before` go (the record of what was sent is kept that long). */
  async prune(before: Date, limit: number): Promise<number> {
    const b = this.database.build;
    const old = b.selectFrom("ChannelDelivery").select("id").where("status", "!=", "PENDING").where("createdAt", "<", this.database.time(before)).limit(limit);
    return run.execute(this.database.db, b.deleteFrom("ChannelDelivery").where("id", "in", old));
  }

  /** How many deliveries wait (metrics, the benchmark). */
  async pendingCount(): Promise<number> {
    const [row] = await run.raw(
      this.database.db,
      this.database.build
        .selectFrom("ChannelDelivery")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("status", "=", "PENDING"),
    );
    return Number(row?.n ?? 0);
  }

  // ---- action tokens ----

  /** Stores the digests of a delivery's action tokens (the same tokens again on a retry: kept once). */
  async rememberTokens(
    tokens: readonly { token: string; personId: string; notificationId: string; revision: number; actionId: string; expiresAt: Date }[],
    now: Date,
  ): Promise<void> {
    if (tokens.length === 0) return;
    const values = tokens.map((t) => ({
      tokenHash: tokenDigest(t.token),
      personId: t.personId,
      notificationId: t.notificationId,
      revision: t.revision,
      actionId: t.actionId,
      expiresAt: this.database.time(t.expiresAt),
      createdAt: this.database.time(now),
    }));
    await run.execute(
      this.database.db,
      this.database.build
        .insertInto("ActionToken")
        .values(values)
        .onConflict((conflict) => conflict.column("tokenHash").doNothing()),
    );
  }

  /**
   * Uses a token once: the row it marks used, or why not. One statement marks it, so two
   * concurrent uses cannot both succeed.
   */
  async useToken(token: string, now: Date): Promise<{ ok: true; token: Row<"ActionToken"> } | { ok: false; reason: "unknown" | "used" | "expired" }> {
    const hash = tokenDigest(token);
    const at = this.database.time(now);
    const used = await run.first(
      this.database.db,
      "ActionToken",
      this.database.build
        .updateTable("ActionToken")
        .set({ usedAt: at })
        .where("tokenHash", "=", hash)
        .where("usedAt", "is", null)
        .where("expiresAt", ">", at)
        .returningAll(),
    );
    if (used) return { ok: true, token: used };
    const row = await run.first(this.database.db, "ActionToken", this.database.build.selectFrom("ActionToken").selectAll().where("tokenHash", "=", hash));
    if (!row) return { ok: false, reason: "unknown" };
    return { ok: false, reason: row.usedAt ? "used" : "expired" };
  }

  /** Expired tokens go. */
  async pruneTokens(now: Date): Promise<number> {
    return run.execute(this.database.db, this.database.build.deleteFrom("ActionToken").where("expiresAt", "<", this.database.time(now)));
  }
}

export function tokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function deliveryOf(row: Row<"ChannelDelivery">): ChannelDelivery {
  return {
    id: row.id,
    channelId: row.channelId,
    personId: row.personId,
    notificationId: row.notificationId,
    revision: Number(row.revision),
    type: row.type as DeliveryType,
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    lastError: row.lastError,
    dueAt: Number(row.dueAt),
    createdAt: row.createdAt as unknown as Date,
    sentAt: row.sentAt as unknown as Date | null,
  };
}
