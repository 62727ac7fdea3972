// Reads and writes notifications. Every write goes through NotificationTx.apply, which stores
// the decided state and appends its event-log entry in the same transaction.
import type { EffectiveFilter } from "../../domain/filter.ts";
import { viewOf } from "../../domain/lifecycle.ts";
import type { NotificationRecord, Receipt } from "../../domain/notification.ts";
import type { Database } from "../connection/database.ts";
import { countStatement, mergePage, type PageWindow, pageStatements, toPageRow, visibleIdsStatement } from "./notification-page-sql.ts";
import { recordProjection, toProjectedRecord, toReceipt, toRecord } from "./notification-mapper.ts";
import { EVENT_COUNTER } from "./notification-write-sql.ts";
import { retrying, retryingTransaction } from "../connection/retrying-transaction.ts";
import { SqliteUnit } from "../sql/sqlite-unit.ts";
import type { SqliteStore } from "../connection/sqlite-store.ts";
import { NotificationTx } from "./notification-tx.ts";
import { type PersonView, personView } from "./person-view.ts";
import { TransactionRunner } from "../sql/statement-runner.ts";
import * as run from "../sql/run.ts";

export class NotificationStore {
  private readonly sqlite: SqliteStore | null;
  constructor(
    private readonly database: Database,
    /** Terminal records a scope target lists (HERALD_HISTORY_LIMIT); older ones wait for the pruner unseen. Null: all. */
    private readonly historyLimit: number | null = null,
  ) {
    this.sqlite = database.sqlite;
  }

  /** The counter row must exist before any transaction increments it (see models.prisma). */
  async init(): Promise<void> {
    // One statement, no read-then-write transaction: on SQLite another process (a CLI command
    // beside a running server) may write between the two and fail an upgrade with SQLITE_BUSY.
    await run.execute(
      this.database.db,
      this.database.build
        .insertInto("EventCounter")
        .values({ name: EVENT_COUNTER, value: 0 })
        .onConflict((conflict) => conflict.column("name").doNothing()),
    );
  }

  /**
   * Runs one unit of work atomically, retrying it from the start when a concurrent writer won a
   * race (unique active key, optimistic lock, reads changed by another process, or a PostgreSQL
   * serialization abort). On SQLite it runs on the connection itself (sqlite-unit.ts): `work`
   * must do nothing but its NotificationTx calls and deciding, since it holds the writer lock
   * (writer-lock.ts) throughout and its writes run only after it returns. On PostgreSQL it is one
   * of the store's transactions.
   */
  async transaction<T>(work: (tx: NotificationTx) => Promise<T>): Promise<T> {
    const sqlite = this.sqlite;
    if (!sqlite) return this.sharedTransaction(work);
    // A unit runs on promise callbacks alone; give the event loop one turn per unit (other
    // requests' I/O, streams' reads), so a loop of writes cannot starve them.
    await new Promise((resolve) => setImmediate(resolve));
    return retrying(() =>
      sqlite.exclusive(async (section) => {
        const unit = new SqliteUnit(sqlite, section);
        const result = await work(new NotificationTx(unit, this.database.provider, null));
        // Another process holding the file (a CLI command, a backup) is waited for between tries.
        await sqlite.whenFree(() => unit.commit());
        return result;
      }),
    );
  }

  /** transaction() in one of the store's transactions, for work that also writes through other stores (tx.connection). */
  async sharedTransaction<T>(work: (tx: NotificationTx) => Promise<T>): Promise<T> {
    return retryingTransaction(this.database.db, (tx) => work(new NotificationTx(new TransactionRunner(tx), this.database.provider, tx)));
  }

  async findById(id: string): Promise<NotificationRecord | null> {
    const row = await run.first(this.database.db, "Notification", this.database.build.selectFrom("Notification").selectAll().where("id", "=", id));
    return row ? toRecord(row) : null;
  }

  /** The person's view of a record outside a unit of work (person-view.ts); null when it is not theirs to see. */
  viewFor(id: string, personId: string): Promise<PersonView | null> {
    return personView(this, id, personId);
  }

  async findReceipt(notificationId: string, personId: string): Promise<Receipt | null> {
    const row = await run.first(this.database.db, "NotificationReceipt", this.receipts(notificationId).where("personId", "=", personId));
    return row ? toReceipt(row) : null;
  }

  /** Every person's receipt of one shared record (only persons who acted on it have one). */
  async receiptsOf(notificationId: string): Promise<Map<string, Receipt>> {
    const rows = await run.rows(this.database.db, "NotificationReceipt", this.receipts(notificationId));
    return new Map(rows.map((row) => [row.personId, toReceipt(row)]));
  }

  /**
   * One page of a person's notifications, newest first: one statement per source (the person's own
   * rows, the shared APPLICATION rows with their receipt; notification-page-sql.ts), each read in
   * page order by its own keyset query and index, merged here; an OR across both would defeat the
   * indexes' ordering. With `fields`, the records hold only those (and their key, scope and
   * status), for a reader that reads no others: a GraphQL selection.
   */
  async page(
    personId: string,
    filter: EffectiveFilter,
    page: PageWindow,
    now: Date,
    fields: Iterable<keyof NotificationRecord> | null = null,
  ): Promise<NotificationRecord[]> {
    const projection = fields === null ? null : recordProjection(fields);
    const statements = pageStatements(this.database.provider, personId, filter, page, now, this.historyLimit, projection?.columns ?? null);
    // Both sources at once: on PostgreSQL two pooled connections; the sources hold disjoint rows (by scope).
    const parts = await Promise.all(statements.map(async (statement) => (await run.raw(this.database.db, statement)).map(toPageRow)));
    return mergePage(parts, page.inverted, page.limit).map(({ row, receipt }) => {
      const record = projection ? toProjectedRecord(row, projection) : toRecord(row);
      return record.scope === "APPLICATION" ? viewOf(record, receipt ? toReceipt(receipt) : null) : record;
    });
  }

  async count(personId: string, filter: EffectiveFilter, now: Date): Promise<number> {
    const statement = countStatement(this.database.provider, personId, filter, now, this.historyLimit);
    if (!statement) return 0;
    const [row] = await run.raw(this.database.db, statement);
    return Number(row?.n ?? 0);
  }

  /** Active records with a retention policy (and request, when given): the retention sweeps. */
  async activeIdsWithRetention(policy: string, requestId: string | null, plugin: string | null = null): Promise<string[]> {
    let query = this.database.build.selectFrom("Notification").select("id").where("retentionPolicy", "=", policy).where("activeKey", "is not", null);
    if (requestId !== null) query = query.where("requestId", "=", requestId);
    if (plugin !== null) query = query.where("sourcePlugin", "=", plugin);
    const rows = await run.rows(this.database.db, "Notification", query);
    return rows.map((r) => r.id);
  }

  /** Snoozes that have passed: (notification, reader) pairs for the snooze waker. */
  async dueSnoozes(now: Date, limit: number): Promise<{ notificationId: string; personId: string }[]> {
    const { build } = this.database;
    const due = this.database.time(now);
    const [own, shared] = await Promise.all([
      run.rows(
        this.database.db,
        "Notification",
        build
          .selectFrom("Notification")
          .select(["id", "personId"])
          .where("snoozedUntil", "<=", due)
          .where("activeKey", "is not", null)
          .where("personId", "is not", null)
          .limit(limit),
      ),
      run.rows(
        this.database.db,
        "NotificationReceipt",
        build
          .selectFrom("NotificationReceipt")
          .innerJoin("Notification", "Notification.id", "NotificationReceipt.notificationId")
          .select(["NotificationReceipt.notificationId", "NotificationReceipt.personId"])
          .where("NotificationReceipt.snoozedUntil", "<=", due)
          .where("Notification.activeKey", "is not", null)
          .limit(limit),
      ),
    ]);
    return [
      ...own.map((r) => ({ notificationId: r.id, personId: r.personId! })),
      ...shared.map((r) => ({ notificationId: r.notificationId, personId: r.personId })),
    ];
  }

  private receipts(notificationId: string) {
    return this.database.build.selectFrom("NotificationReceipt").selectAll().where("notificationId", "=", notificationId);
  }

  /** Ids of the records a person sees with the given filter (used by batch operations). */
  async visibleIds(personId: string, filter: EffectiveFilter, now: Date, limit: number): Promise<string[]> {
    const statement = visibleIdsStatement(this.database.provider, personId, filter, now, limit, this.historyLimit);
    if (!statement) return [];
    const rows = await run.raw(this.database.db, statement);
    return rows.map((r) => String(r.id));
  }
}
