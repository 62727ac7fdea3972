// Reads and writes notifications. Every write goes through NotificationTx.apply, which stores
// the decided state and appends its event-log entry in the same transaction.
import { assetIdsOf } from "../domain/assets.ts";
import { isTerminal, type NotificationEventType } from "../domain/enums.ts";
import type { EffectiveFilter } from "../domain/filter.ts";
import { type Decision, viewOf } from "../domain/lifecycle.ts";
import { activeKeyOf, type NotificationRecord, type Receipt, type Target, targetKeyOf } from "../domain/notification.ts";
import type { Holder } from "../domain/server-instances.ts";
import type { Database, Db, Provider, Tx } from "./database.ts";
import { countStatement, type PageWindow, pageStatement, toPageRow, visibleIdsStatement } from "./notification-page-sql.ts";
import { serializeSnapshot, toColumns, toReceipt, toRecord } from "./notification-mapper.ts";
import type { FactRow } from "./directory-store.ts";
import { newNotificationId } from "./notification-id.ts";
import { type ColumnValue, EVENT_COUNTER, NotificationWriteSql, type RowWrite } from "./notification-write-sql.ts";
import type { Notification as NotificationRow } from "./prisma-client/sqlite/client.ts";
import { retrying, retryingTransaction } from "./retrying-transaction.ts";
import { SqliteUnit } from "./sqlite-unit.ts";
import type { SqliteWriter } from "./sqlite-writer.ts";
import { PrismaRunner, type StatementRunner } from "./statement-runner.ts";
import { changedColumns, groupBy, writeKey } from "./changed-columns.ts";
import type { CommittedEvent } from "../events/committed-event.ts";

export interface Applied {
  record: NotificationRecord;
  event: CommittedEvent | null;
}

export class NotificationStore {
  private readonly db: Db;
  private readonly provider: Provider;
  private readonly sqlite: SqliteWriter | null;
  constructor(
    database: Database,
    /** Terminal records a scope target lists (HERALD_HISTORY_LIMIT); older ones wait for the pruner unseen. Null: all. */
    private readonly historyLimit: number | null = null,
  ) {
    this.db = database.db;
    this.provider = database.provider;
    this.sqlite = database.sqlite;
  }

  /** The counter row must exist before any transaction increments it (see models.prisma). */
  async init(): Promise<void> {
    // One statement, no read-then-write transaction: on SQLite another process (a CLI command
    // beside a running server) may write between the two and fail an upgrade with SQLITE_BUSY.
    await this.db.$executeRawUnsafe(`INSERT INTO "EventCounter" ("name", "value") VALUES ('${EVENT_COUNTER}', 0) ON CONFLICT ("name") DO NOTHING`);
  }

  /**
   * Runs one unit of work atomically, retrying it from the start when a concurrent writer won a
   * race (unique active key, optimistic lock, reads changed by another process, or a PostgreSQL
   * serialization abort). On SQLite it runs on the connection itself (sqlite-unit.ts): `work`
   * must do nothing but its NotificationTx calls and deciding, since it holds the writer lock
   * (sqlite-writer.ts) throughout and its writes run only after it returns. On PostgreSQL it is
   * Prisma's interactive transaction.
   */
  async transaction<T>(work: (tx: NotificationTx) => Promise<T>): Promise<T> {
    const sqlite = this.sqlite;
    if (!sqlite) return this.transactionWithPrisma(work);
    // A unit runs on promise callbacks alone; Prisma's transaction gave the event loop one turn
    // per unit (other requests' I/O, streams' reads), and a loop of writes keeps that turn.
    await new Promise((resolve) => setImmediate(resolve));
    return retrying(() =>
      sqlite.exclusive(async () => {
        const unit = new SqliteUnit(sqlite);
        const result = await work(new NotificationTx(unit, this.provider, null));
        unit.commit();
        return result;
      }),
    );
  }

  /** transaction() in Prisma's interactive transaction, for work that also writes through other stores (tx.prisma). */
  async transactionWithPrisma<T>(work: (tx: NotificationTx) => Promise<T>): Promise<T> {
    return retryingTransaction(this.db, (tx) => work(new NotificationTx(new PrismaRunner(tx), this.provider, tx)));
  }

  async findById(id: string): Promise<NotificationRecord | null> {
    const row = await this.db.notification.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  async findReceipt(notificationId: string, personId: string): Promise<Receipt | null> {
    const row = await this.db.notificationReceipt.findUnique({ where: { notificationId_personId: { notificationId, personId } } });
    return row ? toReceipt(row) : null;
  }

  /** Every person's receipt of one shared record (only persons who acted on it have one). */
  async receiptsOf(notificationId: string): Promise<Map<string, Receipt>> {
    const rows = await this.db.notificationReceipt.findMany({ where: { notificationId } });
    return new Map(rows.map((row) => [row.personId, toReceipt(row)]));
  }

  /**
   * One page of a person's notifications, newest first: one statement (notification-page-sql.ts)
   * in which the person's own rows and the shared APPLICATION rows are each read by their own
   * keyset query and index, then merged; an OR across both would defeat the indexes' ordering.
   */
  async page(personId: string, filter: EffectiveFilter, page: PageWindow, now: Date): Promise<NotificationRecord[]> {
    const statement = pageStatement(this.provider, personId, filter, page, now, this.historyLimit);
    if (!statement) return [];
    const rows = await this.db.$queryRawUnsafe<Record<string, unknown>[]>(statement.sql, ...statement.params);
    return rows.map((raw) => {
      const { row, receipt } = toPageRow(raw);
      const record = toRecord(row);
      return record.scope === "APPLICATION" ? viewOf(record, receipt ? toReceipt(receipt) : null) : record;
    });
  }

  async count(personId: string, filter: EffectiveFilter, now: Date): Promise<number> {
    const statement = countStatement(this.provider, personId, filter, now, this.historyLimit);
    if (!statement) return 0;
    const [row] = await this.db.$queryRawUnsafe<{ n: bigint | number }[]>(statement.sql, ...statement.params);
    return Number(row?.n ?? 0);
  }

  /** Active records with a retention policy (and request, when given): the retention sweeps. */
  async activeIdsWithRetention(policy: string, requestId: string | null, plugin: string | null = null): Promise<string[]> {
    const rows = await this.db.notification.findMany({
      where: { retentionPolicy: policy, activeKey: { not: null }, ...(requestId !== null ? { requestId } : {}), ...(plugin !== null ? { sourcePlugin: plugin } : {}) },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  /** Snoozes that have passed: (notification, reader) pairs for the snooze waker. */
  async dueSnoozes(now: Date, limit: number): Promise<{ notificationId: string; personId: string }[]> {
    const [own, shared] = await Promise.all([
      this.db.notification.findMany({
        where: { snoozedUntil: { lte: now }, activeKey: { not: null }, personId: { not: null } },
        select: { id: true, personId: true },
        take: limit,
      }),
      this.db.notificationReceipt.findMany({
        where: { snoozedUntil: { lte: now }, notification: { activeKey: { not: null } } },
        select: { notificationId: true, personId: true },
        take: limit,
      }),
    ]);
    return [...own.map((r) => ({ notificationId: r.id, personId: r.personId! })), ...shared];
  }

  /** Ids of the records a person sees with the given filter (used by batch operations). */
  async visibleIds(personId: string, filter: EffectiveFilter, now: Date, limit: number): Promise<string[]> {
    const statement = visibleIdsStatement(this.provider, personId, filter, now, limit, this.historyLimit);
    if (!statement) return [];
    const rows = await this.db.$queryRawUnsafe<{ id: string }[]>(statement.sql, ...statement.params);
    return rows.map((r) => r.id);
  }
}

export class NotificationTx {
  /** lockVersion of each row as this transaction read it: the optimistic lock of apply(). */
  private readonly seen = new Map<string, number>();
  /** Assets each row's follow-ups named as this transaction read it (its AssetReference rows). */
  private readonly seenAssets = new Map<string, string[]>();
  /** Rows as read (and as written since) by this transaction: applyBatch writes only what changed. */
  private readonly rows = new Map<string, NotificationRow>();
  /** Instances' heartbeats as read by this transaction (null: the instance has no row). */
  private readonly heartbeats = new Map<string, Date | null>();
  /** Receipts as read by this transaction ("<notification>|<person>"; null: none exists). */
  private readonly receipts = new Map<string, Receipt | null>();
  /**
   * The hot statements, raw. On PostgreSQL the row a decision is based on is read FOR UPDATE, so
   * writers of one key queue up instead of racing and retrying; SQLite has a single writer.
   */
  private readonly sql: NotificationWriteSql;

  constructor(
    runner: StatementRunner,
    provider: Provider,
    private readonly tx: Tx | null,
  ) {
    this.sql = new NotificationWriteSql(runner, provider);
  }

  /** Prisma's transaction, for other stores' writes that must commit with this change (action invocations). */
  get prisma(): Tx {
    if (!this.tx) throw new Error("This unit of work has no Prisma transaction: run it with NotificationStore.transactionWithPrisma");
    return this.tx;
  }

  /** An event that changes no notification row (the person's action invocation changed state). */
  appendEvent(personId: string | null, type: NotificationEventType, record: NotificationRecord): Promise<CommittedEvent> {
    return this.append(personId, type, record);
  }

  private remember(row: NotificationRow): NotificationRecord {
    this.seen.set(row.id, row.lockVersion);
    this.rows.set(row.id, row);
    const record = toRecord(row);
    this.seenAssets.set(row.id, assetIdsOf(record.actions));
    return record;
  }

  /** Several records by id in one statement (locked on PostgreSQL); missing ids are left out. */
  async findManyByIds(ids: readonly string[]): Promise<NotificationRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.sql.rowsByIds(ids);
    return rows.map((row) => this.remember(row));
  }

  /** One person's receipts of several records, in one statement; a missing receipt is absent from the map. */
  async findReceipts(notificationIds: readonly string[], personId: string): Promise<Map<string, Receipt>> {
    const found = new Map<string, Receipt>();
    if (notificationIds.length === 0) return found;
    const rows = await this.sql.receipts(personId, notificationIds);
    for (const row of rows) found.set(row.notificationId, toReceipt(row));
    for (const id of notificationIds) this.receipts.set(`${id}|${personId}`, found.get(id) ?? null);
    return found;
  }

  async findActive(target: Target, key: string): Promise<NotificationRecord | null> {
    const row = await this.sql.rowBy("activeKey", activeKeyOf(target, key));
    return row ? this.remember(row) : null;
  }

  async findById(id: string): Promise<NotificationRecord | null> {
    const row = await this.sql.rowBy("id", id);
    return row ? this.remember(row) : null;
  }

  /** A notification raised earlier for the same (person, trigger), whatever its state now. */
  async findByDedupKey(dedupKey: string): Promise<NotificationRecord | null> {
    const row = await this.sql.rowBy("dedupKey", dedupKey, { lock: false });
    return row ? toRecord(row) : null;
  }

  /** Makes sure a unit that reads many rows before it writes can write what it decides (see NotificationWriteSql.claimWriter). */
  claimWriter(): Promise<void> {
    return this.sql.claimWriter();
  }

  /** The given dedup keys that already have a notification (in any state). */
  firedDedupKeys(dedupKeys: string[]): Promise<Set<string>> {
    return this.sql.valuesAmong("dedupKey", dedupKeys);
  }

  /** The given active keys that have an active occurrence. */
  activeKeysAmong(activeKeys: string[]): Promise<Set<string>> {
    return this.sql.valuesAmong("activeKey", activeKeys);
  }

  /**
   * Writes many new records and their CREATED events (the scanner's batches): one INSERT for the
   * rows, then the counter moves by the batch's size in one step with the events, so the lock on
   * it stays as short as apply()'s.
   */
  async createMany(decisions: Extract<Decision, { kind: "create" }>[]): Promise<Applied[]> {
    if (decisions.length === 0) return [];
    const rows = decisions.map(({ draft, dedupKey }) => newRow(draft, dedupKey));
    const records = rows.map((row) => toRecord(row));
    const created = records.map((record) => ({ personId: audienceOf(record), type: "CREATED" as const, record }));
    const events = await this.appendMany(created, this.sql.insertRows(rows));
    return records.map((record, i) => ({ record, event: events[i]! }));
  }

  /** A fact remembered as part of a notification change (an observation's "Remember this"). */
  async rememberFact(fact: FactRow): Promise<void> {
    await this.prisma.rememberedFact.create({ data: fact });
  }

  async findReceipt(notificationId: string, personId: string): Promise<Receipt | null> {
    const [row] = await this.sql.receipts(personId, [notificationId]);
    const receipt = row ? toReceipt(row) : null;
    this.receipts.set(`${notificationId}|${personId}`, receipt);
    return receipt;
  }

  /**
   * Writes many decisions and their events as a handful of statements, whatever their number:
   * rows that change the same way share one UPDATE (per lockVersion, the optimistic lock), new
   * receipts are one INSERT, the counter moves once for every event and the events are one INSERT.
   * Decisions this cannot batch (creates, receipt resets, records not read here) go one by one.
   */
  async applyBatch(decisions: readonly Decision[]): Promise<Applied[]> {
    const batchable = decisions.every(
      (d) =>
        d.kind === "none" ||
        (d.kind === "update" && !d.resetReceipts && this.rows.has(d.next.id)) ||
        (d.kind === "receipt" && this.rows.has(d.record.id) && this.receipts.has(`${d.receipt.notificationId}|${d.receipt.personId}`)),
    );
    if (!batchable) {
      const applied: Applied[] = [];
      for (const decision of decisions) applied.push(await this.apply(decision));
      return applied;
    }
    const updates = decisions.filter((d): d is Extract<Decision, { kind: "update" }> => d.kind === "update");
    const personal = decisions.filter((d): d is Extract<Decision, { kind: "receipt" }> => d.kind === "receipt");
    // The row writes go with the events (see appendMany); receipts are written before the checks.
    let writes = this.updateRows(updates.map((d) => d.next));
    if (personal.length > 0) {
      await this.sql.run(writes);
      await this.writeReceipts(personal.map((d) => d.receipt));
      writes = this.checkUnchanged(personal.map((d) => d.record.id));
    }

    const pending: { personId: string | null; type: NotificationEventType; record: NotificationRecord }[] = [];
    for (const d of decisions) {
      if (d.kind === "update") pending.push({ personId: audienceOf(d.next), type: d.event, record: d.next });
      if (d.kind === "receipt") pending.push({ personId: d.receipt.personId, type: d.event, record: d.record });
    }
    const events = await this.appendMany(pending, writes);
    let next = 0;
    return decisions.map((d): Applied => {
      if (d.kind === "update") return { record: d.next, event: events[next++]! };
      if (d.kind === "receipt") return { record: d.record, event: events[next++]! };
      if (d.kind === "none") return { record: d.current, event: null };
      throw new Error("applyBatch: a create is never batched");
    });
  }

  /** The new state of records read in this transaction, one UPDATE per (changed columns, lockVersion). */
  private updateRows(nexts: readonly NotificationRecord[]): RowWrite[] {
    const writes = nexts.map((next) => {
      const before = this.rows.get(next.id)!;
      const activeKey = isTerminal(next.status) ? null : activeKeyOf(next, next.key);
      return { id: next.id, lockVersion: before.lockVersion, diff: changedColumns(before, toColumns(next, activeKey, targetKeyOf(next))) };
    });
    // The cache moves on as the statements are built: if one fails, the whole unit of work is retried afresh.
    return groupBy(writes, (w) => `${w.lockVersion}|${writeKey(w.diff)}`).map((group) => {
      const { lockVersion, diff } = group[0]!;
      const ids = group.map((w) => w.id);
      for (const id of ids) {
        this.seen.set(id, lockVersion + 1);
        this.rows.set(id, { ...this.rows.get(id)!, ...diff, lockVersion: lockVersion + 1 } as NotificationRow);
      }
      return this.sql.updateRows(ids, lockVersion, diff);
    });
  }

  /** Personal state was decided against these rows as read: none may have changed since (see apply). */
  private checkUnchanged(ids: readonly string[]): RowWrite[] {
    return groupBy([...new Set(ids)], (id) => String(this.seen.get(id))).map((group) => this.sql.checkRows(group, this.seen.get(group[0]!)!));
  }

  /** Existing receipts: one UPDATE per (person, changed fields); new ones: one INSERT. */
  private async writeReceipts(next: readonly Receipt[]): Promise<void> {
    const now = new Date();
    const fieldsOf = (r: Receipt) => ({
      deliveredAt: r.deliveredAt,
      seenAt: r.seenAt,
      readAt: r.readAt,
      dismissedAt: r.dismissedAt,
      dismissReason: r.dismissReason,
      snoozedUntil: r.snoozedUntil,
      updatedAt: r.updatedAt ?? now,
    });
    const fresh: Receipt[] = [];
    const changed: { receipt: Receipt; diff: Partial<ReturnType<typeof fieldsOf>> }[] = [];
    for (const receipt of next) {
      const key = `${receipt.notificationId}|${receipt.personId}`;
      const before = this.receipts.get(key);
      if (before) changed.push({ receipt, diff: changedColumns(fieldsOf(before), fieldsOf(receipt)) });
      else fresh.push(receipt);
      this.receipts.set(key, receipt);
    }
    for (const group of groupBy(changed, (c) => `${c.receipt.personId}|${writeKey(c.diff)}`)) {
      const { receipt, diff } = group[0]!;
      await this.sql.updateReceipts(receipt.personId, group.map((c) => c.receipt.notificationId), diff);
    }
    await this.sql.insertReceipts(fresh.map((r) => ({ notificationId: r.notificationId, personId: r.personId, ...fieldsOf(r) })));
  }

  /** Who holds a record read in this transaction, with that instance's heartbeat (domain/server-instances.ts). */
  async holderOf(id: string): Promise<Holder> {
    const instanceId = this.rows.get(id)?.serverInstanceId ?? null;
    if (instanceId === null) return { instanceId, heartbeatAt: null };
    if (!this.heartbeats.has(instanceId)) this.heartbeats.set(instanceId, await this.sql.instanceHeartbeat(instanceId));
    return { instanceId, heartbeatAt: this.heartbeats.get(instanceId)! };
  }

  /**
   * Writes a decision and its event. Returns the record as the deciding party sees it. `holder`
   * (a producer's publish or revision, domain holderAfter) sets the instance a record lives for.
   */
  async apply(decision: Decision, holder?: string | null): Promise<Applied> {
    const held = holder === undefined ? {} : { serverInstanceId: holder };
    switch (decision.kind) {
      case "none":
        return { record: decision.current, event: null };
      case "create": {
        const row = { ...newRow(decision.draft, decision.dedupKey), ...held };
        const record = toRecord(row);
        const assets = assetIdsOf(record.actions);
        const insert = this.sql.insertRows([row]);
        // Asset references need the row first; without them the INSERT goes with the event.
        if (assets.length === 0) return { record, event: await this.append(audienceOf(record), decision.event, record, insert) };
        await this.sql.run(insert);
        await this.sql.assetReferences(record.id, [], assets);
        return { record, event: await this.append(audienceOf(record), decision.event, record) };
      }
      case "update": {
        const next = decision.next;
        const lockVersion = this.seen.get(next.id);
        if (lockVersion === undefined) throw new Error("apply(update) needs the record read in the same transaction");
        const activeKey = isTerminal(next.status) ? null : activeKeyOf(next, next.key);
        // The decision was made from the row as read; if another writer changed it since, the
        // lock version moved on, nothing is written, and the unit of work is decided again.
        const update = [this.sql.updateRows([next.id], lockVersion, { ...toColumns(next, activeKey, targetKeyOf(next)), ...held })];
        this.seen.set(next.id, lockVersion + 1);
        const assetsBefore = this.seenAssets.get(next.id) ?? [];
        const assets = assetIdsOf(next.actions);
        this.seenAssets.set(next.id, assets);
        const assetsChange = assets.length !== assetsBefore.length || assets.some((id) => !assetsBefore.includes(id));
        // Without other writes of this change, the UPDATE goes with the event.
        if (!assetsChange && !decision.resetReceipts) return { record: next, event: await this.append(audienceOf(next), decision.event, next, update) };
        await this.sql.run(update);
        await this.sql.assetReferences(next.id, assetsBefore, assets);
        if (decision.resetReceipts) await this.sql.resetReceipts(next.id, next.updatedAt);
        return { record: next, event: await this.append(audienceOf(next), decision.event, next) };
      }
      case "receipt": {
        const { notificationId, personId, ...fields } = decision.receipt;
        // Personal state was decided against this revision of the shared record (a dismissal
        // checks expectedRevision): make sure no producer change slipped in since it was read.
        const lockVersion = this.seen.get(notificationId);
        if (lockVersion === undefined) throw new Error("apply(receipt) needs the record read in the same transaction");
        await this.sql.upsertReceipt({ notificationId, personId, ...fields, updatedAt: fields.updatedAt ?? new Date() });
        const check = [this.sql.checkRows([notificationId], lockVersion)];
        return { record: decision.record, event: await this.append(personId, decision.event, decision.record, check) };
      }
    }
  }

  /**
   * Appends several events with one counter increment (by their number), the transaction's last
   * write (see NotificationWriteSql.appendEvents); their sequence numbers are consecutive, in the given order.
   */
  private async appendMany(
    events: readonly { personId: string | null; type: NotificationEventType; record: NotificationRecord }[],
    writes: readonly RowWrite[] = [],
  ): Promise<CommittedEvent[]> {
    if (events.length === 0) {
      await this.sql.run(writes);
      return [];
    }
    const stored = events.map(({ personId, type, record }) => ({
      snapshot: serializeSnapshot(record),
      personId,
      type,
      notificationId: record.id,
      revision: record.revision,
    }));
    const first = await this.sql.appendEvents(stored, new Date(), writes);
    return stored.map((event, i): CommittedEvent => ({ seq: first + i, ...event }));
  }

  private async append(personId: string | null, type: NotificationEventType, record: NotificationRecord, writes: readonly RowWrite[] = []): Promise<CommittedEvent> {
    const [event] = await this.appendMany([{ personId, type, record }], writes);
    return event!;
  }
}

/** The row a create inserts: its columns as Prisma's create would have written them (lockVersion at its default). */
function newRow(draft: Extract<Decision, { kind: "create" }>["draft"], dedupKey: string | undefined): NotificationRow & Record<string, ColumnValue> {
  const columns = toColumns(draft, activeKeyOf(draft, draft.key), targetKeyOf(draft));
  return { id: newNotificationId(), ...columns, createdAt: draft.createdAt, dedupKey: dedupKey ?? null, serverInstanceId: null, lockVersion: 0 };
}

function audienceOf(record: NotificationRecord): string | null {
  return record.scope === "APPLICATION" ? null : record.personId;
}
