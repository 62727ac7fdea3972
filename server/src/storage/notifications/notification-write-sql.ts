// The statements of NotificationTx: reading rows to decide on, writing the decided rows and
// receipts, and appending their events. These run on every publish and every seen or dismiss
// batch; they are built like every other statement (sql.ts) and run through a StatementRunner: in
// one of the store's transactions, or on SQLite as a unit of work on the connection itself
// (sqlite-unit.ts). Values are always
// bound parameters; column names are checked against the models' columns (generated/columns.ts).
import { sql as raw, type UpdateQueryBuilder } from "kysely";
import type { EventToAppend } from "../../events/committed-event.ts";
import type { Provider } from "../connection/database.ts";
import { StaleWrite } from "../connection/retrying-transaction.ts";
import { newRowId } from "../sql/row-id.ts";
import { type Builder, type DB, sqlFor, storedTime } from "../sql/sql.ts";
import { carryingStatement, shapedStatement, type Slot, Whole } from "../sql/shaped.ts";
import type { RowWrite, StatementRunner, WriteBuilder } from "../sql/statement-runner.ts";
import { columnsOf, decodeRow, isTimeColumn, type Row, type Table } from "../sql/stored-values.ts";
import { tableColumns } from "../generated/columns.ts";

type NotificationRow = Row<"Notification">;
type ReceiptRow = Row<"NotificationReceipt">;

export type { RowWrite } from "../sql/statement-runner.ts";

/** The event counter's row (see models.prisma, EventCounter). */
export const EVENT_COUNTER = "events";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type UpdateQuery = UpdateQueryBuilder<DB, any, any, any>;

export type ColumnValue = string | number | boolean | Date | null | undefined;
type Columns = Readonly<Record<string, ColumnValue>>;

// Bound parameters per statement stay below SQLite's limit (32,766; PostgreSQL allows 65,535).
const MAX_PARAMETERS = 30_000;
const RECEIPT_COLUMNS = tableColumns.NotificationReceipt.columns;

export class NotificationWriteSql {
  /** PostgreSQL reads the rows a decision is based on FOR UPDATE; SQLite has one writer and needs no row locks. */
  private readonly lock: boolean;
  private readonly db: Builder;
  /** SQLite: the event counter's value after this unit's appends so far (read once per unit). */
  private counter: number | null = null;

  constructor(
    private readonly runner: StatementRunner,
    private readonly provider: Provider,
  ) {
    this.lock = provider === "postgresql";
    this.db = sqlFor(provider);
  }

  /** Rows by id, one statement; on PostgreSQL locked in id order, so two batches never wait on each other crosswise. */
  async rowsByIds(ids: readonly string[]): Promise<NotificationRow[]> {
    const query = this.db.selectFrom("Notification").selectAll().where("id", "in", ids);
    const rows = await this.runner.read(this.lock ? query.orderBy("id").forUpdate() : query);
    return rows.map(toNotificationRow);
  }

  /** The row with this id, active key or dedup key (each unique), locked on PostgreSQL by the same statement. */
  async rowBy(column: "id" | "activeKey" | "dedupKey", value: string, options: { lock: boolean } = { lock: true }): Promise<NotificationRow | null> {
    const rows = await this.runner.read(notificationBy(this.provider, { column, lock: this.lock && options.lock }, { value })!);
    return rows[0] ? toNotificationRow(rows[0]) : null;
  }

  /** The newest occurrence of a key within a scope target, terminal ones included (not locked: it is only read to copy from). */
  async latestOccurrence(targetKey: string, key: string): Promise<NotificationRow | null> {
    const query = this.db
      .selectFrom("Notification")
      .selectAll()
      .where("targetKey", "=", targetKey)
      .where("key", "=", key)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .limit(1);
    const rows = await this.runner.read(query);
    return rows[0] ? toNotificationRow(rows[0]) : null;
  }

  /** Which of the values a row holds in the (unique) column, in any state. */
  async valuesAmong(column: "activeKey" | "dedupKey", values: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const chunk of chunked(values, MAX_PARAMETERS)) {
      const rows = await this.runner.read(this.db.selectFrom("Notification").select(`${column} as value`).where(column, "in", chunk));
      for (const row of rows) found.add(String(row.value));
    }
    return found;
  }

  /**
   * SQLite in one of the store's transactions: takes the database's write lock before it reads.
   * A deferred transaction that read first cannot take it once another connection (a CLI command
   * beside the server) committed meanwhile; one that asks first waits its turn instead. A SQLite
   * unit (sqlite-unit.ts) begins IMMEDIATE and checks its reads at commit; PostgreSQL locks rows as it goes.
   */
  async claimWriter(): Promise<void> {
    if (this.provider === "sqlite" && !this.runner.deferred) {
      await this.runner.write([
        {
          statement: this.db
            .updateTable("EventCounter")
            .set((eb) => ({ value: eb.ref("value") }))
            .where("name", "=", EVENT_COUNTER),
          rows: null,
        },
      ]);
    }
  }

  /** New rows that all name the same columns: one INSERT per as many rows as the parameter limit allows. */
  insertRows(rows: readonly Columns[]): RowWrite[] {
    if (rows.length === 0) return [];
    const columns = checkedColumns("Notification", rows[0]!);
    return chunked(rows, Math.floor(MAX_PARAMETERS / columns.length)).map((chunk) => ({
      statement: notificationRows(this.provider, { columns }, { cells: chunk.flatMap((row) => columns.map((column) => row[column] ?? null)) })!,
      rows: chunk.length,
    }));
  }

  /** The columns, written to the rows still at `lockVersion`, which moves on by one (the optimistic lock). */
  updateRows(ids: readonly string[], lockVersion: number, columns: Columns): RowWrite {
    const names = checkedColumns("Notification", columns);
    return {
      statement: notificationUpdate(
        this.provider,
        { columns: names },
        { cells: names.map((c) => columns[c] ?? null), ids, lockVersion, next: lockVersion + 1 },
      )!,
      rows: ids.length,
    };
  }

  /** The rows must still be at `lockVersion`: written without a change, so the check holds until commit. */
  checkRows(ids: readonly string[], lockVersion: number): RowWrite {
    return { statement: notificationUpdate(this.provider, { columns: [] }, { cells: [], ids, lockVersion, next: lockVersion })!, rows: ids.length };
  }

  /** The heartbeat of an instance, null when it has no row (see domain/server-instances.ts). */
  async instanceHeartbeat(instanceId: string): Promise<Date | null> {
    const rows = await this.runner.read(this.db.selectFrom("ServerInstance").select("heartbeatAt").where("id", "=", instanceId));
    return rows[0] ? decodeRow("ServerInstance", rows[0]).heartbeatAt : null;
  }

  /** A row of another table written with this unit's change (an observation's remembered fact): an id and its times encoded. */
  insertRow(table: "RememberedFact", columns: Columns): Promise<void> {
    return this.run([{ statement: this.db.insertInto(table).values({ id: newRowId(), ...this.encoded(table, columns) } as never), rows: 1 }]);
  }

  /** Runs row writes in order (at once, or at the unit's commit); StaleWrite when one touched another number of rows than it must. */
  run(writes: readonly RowWrite[]): Promise<void> {
    return this.runner.write(writes);
  }

  async receipts(personId: string, notificationIds: readonly string[]): Promise<ReceiptRow[]> {
    const rows = await this.runner.read(
      this.db.selectFrom("NotificationReceipt").selectAll().where("personId", "=", personId).where("notificationId", "in", notificationIds),
    );
    return rows.map(toReceiptRow);
  }

  async insertReceipts(receipts: readonly Columns[]): Promise<void> {
    if (receipts.length === 0) return;
    for (const chunk of chunked(receipts, Math.floor(MAX_PARAMETERS / RECEIPT_COLUMNS.length))) {
      const values = chunk.map((receipt) => this.encoded("NotificationReceipt", Object.fromEntries(RECEIPT_COLUMNS.map((c) => [c, receipt[c] ?? null]))));
      await this.runner.write([{ statement: this.db.insertInto("NotificationReceipt").values(values as never), rows: chunk.length }]);
    }
  }

  async updateReceipts(personId: string, notificationIds: readonly string[], columns: Columns): Promise<void> {
    if (Object.keys(columns).length === 0) return;
    await this.runner.write([
      {
        statement: this.db
          .updateTable("NotificationReceipt")
          .set(this.encoded("NotificationReceipt", columns) as never)
          .where("personId", "=", personId)
          .where("notificationId", "in", notificationIds),
        rows: null,
      },
    ]);
  }

  /** One person's receipt of one record, created or overwritten whole. */
  async upsertReceipt(receipt: Columns): Promise<void> {
    const values = this.encoded("NotificationReceipt", Object.fromEntries(RECEIPT_COLUMNS.map((c) => [c, receipt[c] ?? null])));
    const statement = this.db
      .insertInto("NotificationReceipt")
      .values(values as never)
      .onConflict((conflict) =>
        conflict
          .columns(["notificationId", "personId"])
          .doUpdateSet((eb) => Object.fromEntries(RECEIPT_COLUMNS.slice(2).map((c) => [c, eb.ref(`excluded.${c}`)])) as never),
      );
    await this.runner.write([{ statement, rows: 1 }]);
  }

  /** Every person's receipt of a record back to unseen, unread and not dismissed (a producer's new revision asks for it). */
  resetReceipts(notificationId: string, updatedAt: Date): Promise<void> {
    const statement = this.db
      .updateTable("NotificationReceipt")
      .set({ deliveredAt: null, seenAt: null, readAt: null, dismissedAt: null, dismissReason: null, updatedAt: this.time(updatedAt) })
      .where("notificationId", "=", notificationId);
    return this.runner.write([{ statement, rows: null }]);
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
      writes.push({ statement: this.db.deleteFrom("AssetReference").where("notificationId", "=", notificationId).where("assetId", "in", removed), rows: null });
    }
    if (added.length > 0) {
      writes.push({ statement: this.db.insertInto("AssetReference").values(added.map((assetId) => ({ assetId, notificationId }))), rows: added.length });
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
  async appendEvents(events: readonly EventToAppend[], at: Date, writes: readonly RowWrite[] = []): Promise<number> {
    const n = events.length;
    if (this.provider === "postgresql") {
      // The last write rides in the statement when it must touch a known number of rows; writes
      // before it that may touch any number (the outbox's) ride too when all of them may, each a
      // statement of the same WITH: one round trip for the whole change. They read nothing the
      // others write (a WITH's statements share one snapshot).
      const last = writes.at(-1)?.rows != null ? writes.at(-1) : undefined;
      const before = last ? writes.slice(0, -1) : writes;
      const along = before.every((write) => write.rows === null) ? before : [];
      await this.run(along.length > 0 ? [] : before);
      const carried = [...along, ...(last ? [last] : [])].map((write) => write.statement);
      const rows = await this.runner.read(
        eventsCarrying(
          this.provider,
          { along: along.length, last: last !== undefined },
          {
            n,
            counter: EVENT_COUNTER,
            written: last?.rows ?? 0,
            at,
            personIds: new Whole(events.map((e) => e.personId)),
            types: new Whole(events.map((e) => e.type)),
            notificationIds: new Whole(events.map((e) => e.notificationId)),
            revisions: new Whole(events.map((e) => e.revision)),
            snapshots: new Whole(events.map((e) => e.snapshot)),
          },
          carried,
        ),
      );
      if (rows.length === 0 && last) throw new StaleWrite();
      if (rows.length !== n) throw new Error(`the event counter row "${EVENT_COUNTER}" is missing`);
      along.forEach((write, i) => write.counted?.(Number(rows[0]![`along${i}`])));
      if (last?.rows != null) last.counted?.(last.rows);
      return Math.min(...rows.map((r) => Number(r.seq)));
    }
    if (this.counter === null) {
      const [counter] = await this.runner.read(counterValue(this.provider, null, {})!);
      if (!counter) throw new Error(`the event counter row "${EVENT_COUNTER}" is missing`);
      this.counter = Number(counter.value);
    }
    const before = this.counter;
    const first = before + 1;
    const inserts = chunked(
      events.map((e, i) => ({ ...e, seq: first + i })),
      Math.floor(MAX_PARAMETERS / 7),
    ).map((chunk) => ({
      statement: eventRows(this.provider, null, {
        seq: chunk.map((e) => e.seq),
        personId: chunk.map((e) => e.personId),
        type: chunk.map((e) => e.type),
        notificationId: chunk.map((e) => e.notificationId),
        revision: chunk.map((e) => e.revision),
        snapshot: chunk.map((e) => e.snapshot),
        createdAt: at,
      })!,
      rows: chunk.length,
    }));
    const counter = { statement: counterMove(this.provider, null, { value: before + n, before })!, rows: 1 };
    await this.runner.write([...writes, counter, ...inserts]);
    this.counter = before + n;
    return first;
  }

  /** The columns with their times encoded as the store keeps them; a name that is not a column of the table is refused. */
  private encoded(table: Table, columns: Columns): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const column of checkedColumns(table, columns)) {
      const value = columns[column];
      values[column] = value instanceof Date ? this.time(value) : value === undefined || (value === null && isTimeColumn(table, column)) ? null : value;
    }
    return values;
  }

  private time(value: Date) {
    return storedTime(this.provider, value);
  }
}

// The statements of every publish, compiled once per shape (sql/shaped.ts).

const notificationBy = shapedStatement<{ column: "id" | "activeKey" | "dedupKey"; lock: boolean }, { value: string }>((provider, shape, v) => {
  const query = sqlFor(provider).selectFrom("Notification").selectAll().where(shape.column, "=", v.value);
  return shape.lock ? query.forUpdate() : query;
});

/** New Notification rows naming `columns`, their values row after row in `cells`. */
const notificationRows = shapedStatement<{ columns: readonly string[] }, { cells: readonly unknown[] }, WriteBuilder>((provider, shape, v) => {
  const width = shape.columns.length;
  const rows: Record<string, unknown>[] = [];
  for (let start = 0; start < v.cells.length; start += width) {
    const row: Record<string, unknown> = {};
    shape.columns.forEach((column, i) => (row[column] = notificationCell(provider, column, v.cells[start + i]!)));
    rows.push(row);
  }
  return sqlFor(provider)
    .insertInto("Notification")
    .values(rows as never);
});

/** `columns` set to `cells` (and the lock version moved to `next`) on the rows among `ids` still at `lockVersion`. */
const notificationUpdate = shapedStatement<
  { columns: readonly string[] },
  { cells: readonly unknown[]; ids: readonly string[]; lockVersion: number; next: number },
  WriteBuilder
>((provider, shape, v) => {
  const set: Record<string, unknown> = {};
  shape.columns.forEach((column, i) => (set[column] = notificationCell(provider, column, v.cells[i]!)));
  set.lockVersion = v.next;
  return sqlFor(provider)
    .updateTable("Notification")
    .set(set as never)
    .where("id", "in", v.ids)
    .where("lockVersion", "=", v.lockVersion);
});

/** A value's slot in a Notification column: a time column's bound as the store keeps times. */
function notificationCell(provider: Provider, column: string, cell: Slot<unknown>): unknown {
  return isTimeColumn("Notification", column) ? storedTime(provider, cell as Slot<Date>) : cell;
}

/** The names of `columns`, each a column of `table` (refused otherwise: names are spliced into statements). */
function checkedColumns(table: Table, columns: Columns): string[] {
  const known = columnsOf(table);
  const names = Object.keys(columns);
  for (const name of names) if (!known.has(name)) throw new Error(`not a column of ${table}: ${name}`);
  return names;
}

const counterValue = shapedStatement<null, Record<string, never>>((provider) =>
  sqlFor(provider).selectFrom("EventCounter").select("value").where("name", "=", EVENT_COUNTER),
);

const counterMove = shapedStatement<null, { value: number; before: number }, WriteBuilder>((provider, _shape, v) =>
  sqlFor(provider).updateTable("EventCounter").set({ value: v.value }).where("name", "=", EVENT_COUNTER).where("value", "=", v.before),
);

interface EventColumns {
  seq: readonly number[];
  personId: readonly (string | null)[];
  type: readonly string[];
  notificationId: readonly string[];
  revision: readonly number[];
  snapshot: readonly string[];
  createdAt: Date;
}

const eventRows = shapedStatement<null, EventColumns, WriteBuilder>((provider, _shape, v) =>
  sqlFor(provider)
    .insertInto("NotificationEvent")
    .values(
      v.seq.map((seq, i) => ({
        seq,
        personId: v.personId[i]!,
        type: v.type[i]!,
        notificationId: v.notificationId[i]!,
        revision: v.revision[i]!,
        snapshot: v.snapshot[i]!,
        createdAt: storedTime(provider, v.createdAt),
      })),
    ),
);

interface EventsValues {
  n: number;
  counter: string;
  /** The rows the last write must touch (0 without one: not in the text). */
  written: number;
  at: Date;
  personIds: Whole<(string | null)[]>;
  types: Whole<string[]>;
  notificationIds: Whole<string[]>;
  revisions: Whole<number[]>;
  snapshots: Whole<string[]>;
}

/**
 * PostgreSQL's event append carrying a change's writes (appendEvents): `along` writes that may
 * touch any number of rows, then the last one if `last`, each a statement of one WITH. Compiled
 * once per shape and the shapes of what it carries (sql/shaped.ts, carryingStatement).
 */
const eventsCarrying = carryingStatement<{ along: number; last: boolean }, EventsValues, WriteBuilder>((provider, shape, v, carried) => {
  const returningOne = (query: WriteBuilder) => (query as UpdateQuery).returning(raw.lit(1).as("one"));
  const alongName = (i: number) => raw.id(`along${i}`);
  const along = carried.slice(0, shape.along);
  const alongWith = along.map((query, i) => raw`${alongName(i)} AS (${returningOne(query)}), `);
  const alongCounts = along.map((_, i) => raw`, (SELECT count(*) FROM ${alongName(i)}) AS ${alongName(i)}`);
  const written = shape.last ? raw`written AS (${returningOne(carried[shape.along]!)}), ` : raw``;
  const guard = shape.last ? raw` AND (SELECT count(*) FROM written) = ${v.written}` : raw``;
  const statement = raw`
    WITH ${raw.join(alongWith, raw``)}${written}counter AS (UPDATE "EventCounter" SET "value" = "value" + ${v.n} WHERE "name" = ${v.counter}${guard} RETURNING "value")
    INSERT INTO "NotificationEvent" ("seq", "personId", "type", "notificationId", "revision", "snapshot", "createdAt")
    SELECT counter."value" - ${v.n} + e."ord", e."personId", e."type", e."notificationId", e."revision", e."snapshot", ${storedTime(provider, v.at)}
    FROM counter, unnest(
      CAST(${v.personIds} AS text[]), CAST(${v.types} AS text[]), CAST(${v.notificationIds} AS text[]),
      CAST(${v.revisions} AS int[]), CAST(${v.snapshots} AS text[])
    ) WITH ORDINALITY AS e("personId", "type", "notificationId", "revision", "snapshot", "ord")
    RETURNING "seq"${raw.join(alongCounts, raw``)}`;
  return { compile: () => statement.compile(sqlFor(provider)) };
});

/** A raw Notification row as the models type it. */
export function toNotificationRow(raw: Record<string, unknown>): NotificationRow {
  return decodeRow("Notification", raw) as unknown as NotificationRow;
}

/** A raw NotificationReceipt row as the models type it. */
export function toReceiptRow(raw: Record<string, unknown>): ReceiptRow {
  return decodeRow("NotificationReceipt", raw) as unknown as ReceiptRow;
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
