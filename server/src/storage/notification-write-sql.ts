// The statements of NotificationTx as raw SQL: reading rows to decide on, writing the decided rows
// and receipts, and appending their events. These run on every publish and every seen or dismiss
// batch, where Prisma's query compiler cost several times what the database did; the models,
// migrations and row types stay Prisma's. They run through a StatementRunner: in Prisma's
// transaction, or on SQLite as a unit of work on the connection itself (sqlite-unit.ts).
// Values are always bound parameters; only column names from the lists below (checked against
// prisma/models.prisma by test/storage/notification-write-sql.test.ts) are spliced in.
import type { NotificationEventType } from "../domain/enums.ts";
import type { Provider } from "./database.ts";
import type { Notification as NotificationRow, NotificationReceipt as ReceiptRow } from "./prisma-client/sqlite/client.ts";
import * as Prisma from "./prisma-sql.ts";
import { NOTIFICATION_DATE_COLUMNS, RECEIPT_COLUMNS, RECEIPT_DATE_COLUMNS, toNotificationRow, toReceiptRow } from "./raw-rows.ts";
import { StaleWrite } from "./retrying-transaction.ts";
import { storedDate } from "./stored-date.ts";
import type { RowWrite, StatementRunner } from "./statement-runner.ts";

export type { RowWrite } from "./statement-runner.ts";

/** The event counter's row (see models.prisma, EventCounter). */
export const EVENT_COUNTER = "events";

export const NOTIFICATION_COLUMNS = [
  "id", "scope", "personId", "sessionId", "key", "activeKey", "targetKey", "revision", "lockVersion", "status", "severity", "title", "body",
  "sourcePlugin", "sourceSubsystem", "display", "actions", "operation", "operationId", "uiEffects", "data", "retentionPolicy", "expiresAt",
  "requestId", "serverInstanceId", "triggerType", "triggerRef", "dedupKey", "engagementId", "resolution", "terminalReason", "snoozedUntil", "createdAt", "updatedAt",
  "deliveredAt", "seenAt", "readAt", "dismissedAt", "resolvedAt", "expiredAt",
] as const;

export type ColumnValue = string | number | Date | null | undefined;
type Columns = Readonly<Record<string, ColumnValue>>;

export interface NewEvent {
  personId: string | null;
  type: NotificationEventType;
  notificationId: string;
  revision: number;
  snapshot: string;
}

// Bound parameters per statement stay below SQLite's limit (32,766; PostgreSQL allows 65,535).
const MAX_PARAMETERS = 30_000;
const notificationColumns = new Set<string>(NOTIFICATION_COLUMNS);
const receiptColumns = new Set<string>(RECEIPT_COLUMNS);
const timeColumns = new Set<string>([...NOTIFICATION_DATE_COLUMNS, ...RECEIPT_DATE_COLUMNS]);

export class NotificationWriteSql {
  /** PostgreSQL reads the rows a decision is based on FOR UPDATE; SQLite has one writer and needs no row locks. */
  private readonly lock: boolean;
  /** SQLite: the event counter's value after this unit's appends so far (read once per unit). */
  private counter: number | null = null;

  constructor(
    private readonly runner: StatementRunner,
    private readonly provider: Provider,
  ) {
    this.lock = provider === "postgresql";
  }

  /** Rows by id, one statement; on PostgreSQL locked in id order, so two batches never wait on each other crosswise. */
  async rowsByIds(ids: readonly string[]): Promise<NotificationRow[]> {
    const where = Prisma.sql`"id" IN (${Prisma.join(ids)})`;
    const rows = await this.runner.read(
      this.lock ? Prisma.sql`SELECT * FROM "Notification" WHERE ${where} ORDER BY "id" FOR UPDATE` : Prisma.sql`SELECT * FROM "Notification" WHERE ${where}`,
    );
    return rows.map(toNotificationRow);
  }

  /** The row with this id, active key or dedup key (each unique), locked on PostgreSQL by the same statement. */
  async rowBy(column: "id" | "activeKey" | "dedupKey", value: string, options: { lock: boolean } = { lock: true }): Promise<NotificationRow | null> {
    const lock = this.lock && options.lock ? Prisma.sql` FOR UPDATE` : Prisma.empty;
    const rows = await this.runner.read(Prisma.sql`SELECT * FROM "Notification" WHERE ${identifier(column)} = ${value}${lock}`);
    return rows[0] ? toNotificationRow(rows[0]) : null;
  }

  /** Which of the values a row holds in the (unique) column, in any state. */
  async valuesAmong(column: "activeKey" | "dedupKey", values: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const chunk of chunked(values, MAX_PARAMETERS)) {
      const rows = await this.runner.read(Prisma.sql`SELECT ${identifier(column)} AS "value" FROM "Notification" WHERE ${identifier(column)} IN (${Prisma.join(chunk)})`);
      for (const row of rows) found.add(String(row.value));
    }
    return found;
  }

  /**
   * SQLite in Prisma's transaction: takes the database's write lock before the transaction reads.
   * A deferred transaction that read first cannot take it once another connection (a CLI command
   * beside the server) committed meanwhile; one that asks first waits its turn instead. A SQLite
   * unit (sqlite-unit.ts) begins IMMEDIATE and checks its reads at commit; PostgreSQL locks rows as it goes.
   */
  async claimWriter(): Promise<void> {
    if (this.provider === "sqlite" && !this.runner.deferred) {
      await this.runner.write([{ statement: Prisma.sql`UPDATE "EventCounter" SET "value" = "value" WHERE "name" = ${EVENT_COUNTER}`, rows: null }]);
    }
  }

  /** New rows that all name the same columns: one INSERT per as many rows as the parameter limit allows. */
  insertRows(rows: readonly Columns[]): RowWrite[] {
    if (rows.length === 0) return [];
    const columns = Object.keys(rows[0]!).map((c) => checked(c, notificationColumns));
    return chunked(rows, Math.floor(MAX_PARAMETERS / columns.length)).map((chunk) => {
      const values = chunk.map((row) => Prisma.sql`(${Prisma.join(columns.map((c) => this.value(c, row[c])))})`);
      return { statement: Prisma.sql`INSERT INTO "Notification" (${identifiers(columns)}) VALUES ${Prisma.join(values)}`, rows: chunk.length };
    });
  }

  /** The columns, written to the rows still at `lockVersion`, which moves on by one (the optimistic lock). */
  updateRows(ids: readonly string[], lockVersion: number, columns: Columns): RowWrite {
    const sets = Object.entries(columns).map(([c, v]) => Prisma.sql`${identifier(checked(c, notificationColumns))} = ${this.value(c, v)}`);
    sets.push(Prisma.sql`"lockVersion" = ${lockVersion + 1}`);
    return {
      statement: Prisma.sql`UPDATE "Notification" SET ${Prisma.join(sets)} WHERE "id" IN (${Prisma.join(ids)}) AND "lockVersion" = ${lockVersion}`,
      rows: ids.length,
    };
  }

  /** The rows must still be at `lockVersion`: written without a change, so the check holds until commit. */
  checkRows(ids: readonly string[], lockVersion: number): RowWrite {
    return {
      statement: Prisma.sql`UPDATE "Notification" SET "lockVersion" = ${lockVersion} WHERE "id" IN (${Prisma.join(ids)}) AND "lockVersion" = ${lockVersion}`,
      rows: ids.length,
    };
  }

  /** The heartbeat of an instance, null when it has no row (see domain/server-instances.ts). */
  async instanceHeartbeat(instanceId: string): Promise<Date | null> {
    const rows = await this.runner.read(Prisma.sql`SELECT "heartbeatAt" FROM "ServerInstance" WHERE "id" = ${instanceId}`);
    return rows[0] ? storedDate(rows[0].heartbeatAt) : null;
  }

  /** Runs row writes in order (at once, or at the unit's commit); StaleWrite when one touched another number of rows than it must. */
  run(writes: readonly RowWrite[]): Promise<void> {
    return this.runner.write(writes);
  }

  async receipts(personId: string, notificationIds: readonly string[]): Promise<ReceiptRow[]> {
    const rows = await this.runner.read(
      Prisma.sql`SELECT * FROM "NotificationReceipt" WHERE "personId" = ${personId} AND "notificationId" IN (${Prisma.join(notificationIds)})`,
    );
    return rows.map(toReceiptRow);
  }

  async insertReceipts(receipts: readonly Columns[]): Promise<void> {
    if (receipts.length === 0) return;
    for (const chunk of chunked(receipts, Math.floor(MAX_PARAMETERS / RECEIPT_COLUMNS.length))) {
      const values = chunk.map((r) => Prisma.sql`(${Prisma.join(RECEIPT_COLUMNS.map((c) => this.value(c, r[c])))})`);
      await this.runner.write([{ statement: Prisma.sql`INSERT INTO "NotificationReceipt" (${identifiers(RECEIPT_COLUMNS)}) VALUES ${Prisma.join(values)}`, rows: chunk.length }]);
    }
  }

  async updateReceipts(personId: string, notificationIds: readonly string[], columns: Columns): Promise<void> {
    const sets = Object.entries(columns).map(([c, v]) => Prisma.sql`${identifier(checked(c, receiptColumns))} = ${this.value(c, v)}`);
    if (sets.length === 0) return;
    await this.runner.write([
      { statement: Prisma.sql`UPDATE "NotificationReceipt" SET ${Prisma.join(sets)} WHERE "personId" = ${personId} AND "notificationId" IN (${Prisma.join(notificationIds)})`, rows: null },
    ]);
  }

  /** One person's receipt of one record, created or overwritten whole. */
  async upsertReceipt(receipt: Columns): Promise<void> {
    const values = RECEIPT_COLUMNS.map((c) => this.value(c, receipt[c]));
    const sets = RECEIPT_COLUMNS.slice(2).map((c) => Prisma.sql`${identifier(c)} = excluded.${identifier(c)}`);
    await this.runner.write([
      {
        statement: Prisma.sql`INSERT INTO "NotificationReceipt" (${identifiers(RECEIPT_COLUMNS)}) VALUES (${Prisma.join(values)}) ON CONFLICT ("notificationId", "personId") DO UPDATE SET ${Prisma.join(sets)}`,
        rows: 1,
      },
    ]);
  }

  /** Every person's receipt of a record back to unseen, unread and not dismissed (a producer's new revision asks for it). */
  resetReceipts(notificationId: string, updatedAt: Date): Promise<void> {
    const sets = Prisma.sql`"deliveredAt" = NULL, "seenAt" = NULL, "readAt" = NULL, "dismissedAt" = NULL, "dismissReason" = NULL, "updatedAt" = ${this.time(updatedAt)}`;
    return this.runner.write([{ statement: Prisma.sql`UPDATE "NotificationReceipt" SET ${sets} WHERE "notificationId" = ${notificationId}`, rows: null }]);
  }

  /**
   * AssetReference rows of a record, from the assets its follow-ups named before to the ones they
   * name now: written with the record's own change, so a download check and the collector never
   * see actions and references disagree.
   */
  async assetReferences(notificationId: string, before: readonly string[], after: readonly string[]): Promise<void> {
    const removed = before.filter((id) => !after.includes(id));
    const added = [...new Set(after.filter((id) => !before.includes(id)))];
    const writes: RowWrite[] = [];
    if (removed.length > 0) {
      writes.push({ statement: Prisma.sql`DELETE FROM "AssetReference" WHERE "notificationId" = ${notificationId} AND "assetId" IN (${Prisma.join(removed)})`, rows: null });
    }
    if (added.length > 0) {
      const values = added.map((assetId) => Prisma.sql`(${assetId}, ${notificationId})`);
      writes.push({ statement: Prisma.sql`INSERT INTO "AssetReference" ("assetId", "notificationId") VALUES ${Prisma.join(values)}`, rows: added.length });
    }
    await this.runner.write(writes);
  }

  /**
   * Runs the row writes, then moves the event counter by the number of events and inserts them
   * with the numbers just below its new value, in the given order; returns the first. The
   * counter's row lock is held until commit, so this is the transaction's last write
   * (docs/event-stream.md, "Sequence numbers"). On PostgreSQL the last row write, the increment
   * and the INSERT are one statement (the counter moves only if that write touched its rows). On
   * SQLite, one writer at a time, the unit reads the counter once, numbers its events from it and
   * sets the counter only if it still holds that value: a SQLite unit (sqlite-unit.ts) must know
   * the numbers before its writes run at commit.
   */
  async appendEvents(events: readonly NewEvent[], at: Date, writes: readonly RowWrite[] = []): Promise<number> {
    const n = events.length;
    if (this.provider === "postgresql") {
      // The last write rides in the statement when it must touch a known number of rows.
      const last = writes.at(-1)?.rows != null ? writes.at(-1) : undefined;
      await this.run(last ? writes.slice(0, -1) : writes);
      const written = last ? Prisma.sql`written AS (${last.statement} RETURNING 1), ` : Prisma.empty;
      const guard = last ? Prisma.sql` AND (SELECT count(*) FROM written) = ${last.rows}` : Prisma.empty;
      const rows = await this.runner.read(Prisma.sql`
        WITH ${written}counter AS (UPDATE "EventCounter" SET "value" = "value" + ${n} WHERE "name" = ${EVENT_COUNTER}${guard} RETURNING "value")
        INSERT INTO "NotificationEvent" ("seq", "personId", "type", "notificationId", "revision", "snapshot", "createdAt")
        SELECT counter."value" - ${n} + e."ord", e."personId", e."type", e."notificationId", e."revision", e."snapshot", ${this.time(at)}
        FROM counter, unnest(
          CAST(${events.map((e) => e.personId)} AS text[]), CAST(${events.map((e) => e.type)} AS text[]), CAST(${events.map((e) => e.notificationId)} AS text[]),
          CAST(${events.map((e) => e.revision)} AS int[]), CAST(${events.map((e) => e.snapshot)} AS text[])
        ) WITH ORDINALITY AS e("personId", "type", "notificationId", "revision", "snapshot", "ord")
        RETURNING "seq"`);
      if (rows.length === 0 && last) throw new StaleWrite();
      if (rows.length !== n) throw new Error(`the event counter row "${EVENT_COUNTER}" is missing`);
      return Math.min(...rows.map((r) => Number(r.seq)));
    }
    if (this.counter === null) {
      const [counter] = await this.runner.read(Prisma.sql`SELECT "value" FROM "EventCounter" WHERE "name" = ${EVENT_COUNTER}`);
      if (!counter) throw new Error(`the event counter row "${EVENT_COUNTER}" is missing`);
      this.counter = Number(counter.value);
    }
    const before = this.counter;
    const first = before + 1;
    const createdAt = this.time(at);
    const rows = events.map((e, i) => Prisma.sql`(${first + i}, ${e.personId}, ${e.type}, ${e.notificationId}, ${e.revision}, ${e.snapshot}, ${createdAt})`);
    const inserts = chunked(rows, Math.floor(MAX_PARAMETERS / 7)).map((chunk) => ({
      statement: Prisma.sql`INSERT INTO "NotificationEvent" ("seq", "personId", "type", "notificationId", "revision", "snapshot", "createdAt") VALUES ${Prisma.join(chunk)}`,
      rows: chunk.length,
    }));
    const counter = { statement: Prisma.sql`UPDATE "EventCounter" SET "value" = ${before + n} WHERE "name" = ${EVENT_COUNTER} AND "value" = ${before}`, rows: 1 };
    await this.runner.write([...writes, counter, ...inserts]);
    this.counter = before + n;
    return first;
  }

  private value(column: string, value: ColumnValue): Prisma.Sql {
    if (timeColumns.has(column)) return this.time((value ?? null) as Date | null);
    return Prisma.sql`${value ?? null}`;
  }

  /** A time as the store keeps it: PostgreSQL timestamp(3) holding UTC, SQLite ISO-8601 text with "+00:00" (as Prisma writes both). */
  private time(value: Date | null): Prisma.Sql {
    if (value === null) return Prisma.sql`NULL`;
    const iso = value.toISOString();
    return this.provider === "postgresql" ? Prisma.sql`CAST(${iso} AS timestamp(3))` : Prisma.sql`${iso.replace("Z", "+00:00")}`;
  }
}

function checked(column: string, known: ReadonlySet<string>): string {
  if (!known.has(column)) throw new Error(`not a column of this table: ${column}`);
  return column;
}

function identifier(column: string): Prisma.Sql {
  return Prisma.raw(`"${column}"`);
}

function identifiers(columns: readonly string[]): Prisma.Sql {
  return Prisma.join(columns.map(identifier));
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
