// One unit of work on notifications: the reads a decision is based on, and apply(), which stores
// the decided state and appends its event-log entry in the same transaction (optimistic lock on
// what this transaction read).
import { assetIdsOf } from "../../domain/assets.ts";
import type { NotificationEventType } from "../../domain/enums.ts";
import type { Decision } from "../../domain/lifecycle.ts";
import { activeKeyOf, type NotificationRecord, type Receipt, storedActiveKey, type Target, targetKeyOf } from "../../domain/notification.ts";
import type { Holder } from "../../domain/server-instances.ts";
import type { Provider, Tx } from "../connection/database.ts";
import { serializeSnapshot, toColumns, toReceipt, toRecord } from "./notification-mapper.ts";
import type { FactRow } from "../persons/directory-store.ts";
import { newRowId } from "../sql/row-id.ts";
import { type ColumnValue, NotificationWriteSql, type RowWrite } from "./notification-write-sql.ts";
import type { Row } from "../sql/stored-values.ts";
import type { StatementRunner } from "../sql/statement-runner.ts";
import { changedColumns, groupBy, writeKey } from "../sql/changed-columns.ts";
import type { CommittedEvent } from "../../events/committed-event.ts";
import { outboxWrite } from "../channels/delivery-outbox.ts";
import { type PersonView, personView, personViews } from "./person-view.ts";

export interface Applied {
  record: NotificationRecord;
  event: CommittedEvent | null;
}

export class NotificationTx {
  /**
   * Every event this unit appended, in order: the write path publishes them once the unit
   * committed (a unit that is retried starts afresh with a new NotificationTx).
   */
  readonly appended: CommittedEvent[] = [];
  /**
   * Whether a write of this unit put a channel delivery in the outbox: the write path tells the
   * delivery worker so (the bus message), and a revision no channel selected wakes no one.
   */
  queuedDeliveries = false;
  /** lockVersion of each row as this transaction read it: the optimistic lock of apply(). */
  private readonly seen = new Map<string, number>();
  /** Assets each row's follow-ups named as this transaction read it (its AssetReference rows). */
  private readonly seenAssets = new Map<string, string[]>();
  /** Rows as read (and as written since) by this transaction: applyBatch writes only what changed. */
  private readonly rows = new Map<string, Row<"Notification">>();
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
    private readonly provider: Provider,
    private readonly tx: Tx | null,
  ) {
    this.sql = new NotificationWriteSql(runner, provider);
  }

  /** The store's transaction, for other stores' writes that must commit with this change (action invocations). */
  get connection(): Tx {
    if (!this.tx) throw new Error("This unit of work has no transaction of the store: run it with NotificationStore.sharedTransaction");
    return this.tx;
  }

  /** An event that changes no notification row (the person's action invocation changed state). */
  appendEvent(personId: string | null, type: NotificationEventType, record: NotificationRecord): Promise<CommittedEvent> {
    return this.append(personId, type, record);
  }

  /** The person's view of a record (person-view.ts), read and remembered for this unit's optimistic lock. */
  viewFor(id: string, personId: string): Promise<PersonView | null> {
    return personView(this, id, personId);
  }

  /** The person's views of the records among `ids` they can see, from two reads for all of them. */
  viewsFor(ids: readonly string[], personId: string): Promise<PersonView[]> {
    return personViews(this, ids, personId);
  }

  private remember(row: Row<"Notification">): NotificationRecord {
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

  /** The newest occurrence of a key within a target, whatever its state (a terminal one is read only to copy from). */
  async findLatest(target: Target, key: string): Promise<NotificationRecord | null> {
    const row = await this.sql.latestOccurrence(targetKeyOf(target), key);
    return row ? toRecord(row) : null;
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
    const events = await this.appendMany(created, [
      ...records.flatMap((record) => this.deliveriesOf(record, "CREATED", undefined)),
      ...this.sql.insertRows(rows),
    ]);
    return records.map((record, i) => ({ record, event: events[i]! }));
  }

  /** A fact remembered as part of a notification change (an observation's "Remember this"). */
  async rememberFact(fact: FactRow): Promise<void> {
    await this.sql.insertRow("RememberedFact", { ...fact });
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
    const deliveries = updates.flatMap((d) => this.deliveriesOf(d.next, d.event, this.rows.get(d.next.id)));
    let writes = [...deliveries, ...this.updateRows(updates.map((d) => d.next))];
    if (personal.length > 0) {
      await this.sql.run(writes);
      await this.writeReceipts(personal.map((d) => d.receipt));
      writes = this.checkUnchanged(personal.map((d) => d.record.id));
    }

    const pending: { personId: string | null; type: NotificationEventType; record: NotificationRecord }[] = [];
    for (const d of decisions) {
      if (d.kind === "update") pending.push({ personId: audienceOf(d.next), type: d.event, record: d.next });
      if (d.kind === "receipt" && !d.silent) pending.push({ personId: d.receipt.personId, type: d.event, record: d.record });
    }
    const events = await this.appendMany(pending, writes);
    let next = 0;
    return decisions.map((d): Applied => {
      if (d.kind === "update") return { record: d.next, event: events[next++]! };
      if (d.kind === "receipt") return { record: d.record, event: d.silent ? null : events[next++]! };
      if (d.kind === "none") return { record: d.current, event: null };
      throw new Error("applyBatch: a create is never batched");
    });
  }

  /** The new state of records read in this transaction, one UPDATE per (changed columns, lockVersion). */
  private updateRows(nexts: readonly NotificationRecord[]): RowWrite[] {
    const writes = nexts.map((next) => {
      const before = this.rows.get(next.id)!;
      const activeKey = storedActiveKey(next);
      return { id: next.id, lockVersion: before.lockVersion, diff: changedColumns(before, toColumns(next, activeKey, targetKeyOf(next))) };
    });
    // The cache moves on as the statements are built: if one fails, the whole unit of work is retried afresh.
    return groupBy(writes, (w) => `${w.lockVersion}|${writeKey(w.diff)}`).map((group) => {
      const { lockVersion, diff } = group[0]!;
      const ids = group.map((w) => w.id);
      for (const id of ids) {
        this.seen.set(id, lockVersion + 1);
        this.rows.set(id, { ...this.rows.get(id)!, ...diff, lockVersion: lockVersion + 1 } as Row<"Notification">);
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
      await this.sql.updateReceipts(
        receipt.personId,
        group.map((c) => c.receipt.notificationId),
        diff,
      );
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
        const insert = [...this.deliveriesOf(record, decision.event, undefined), ...this.sql.insertRows([row])];
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
        const activeKey = storedActiveKey(next);
        // The decision was made from the row as read; if another writer changed it since, the
        // lock version moved on, nothing is written, and the unit of work is decided again.
        const update = [
          ...this.deliveriesOf(next, decision.event, this.rows.get(next.id)),
          this.sql.updateRows([next.id], lockVersion, { ...toColumns(next, activeKey, targetKeyOf(next)), ...held }),
        ];
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
        if (decision.silent) {
          await this.sql.run(check);
          return { record: decision.record, event: null };
        }
        return { record: decision.record, event: await this.append(personId, decision.event, decision.record, check) };
      }
    }
  }

  /**
   * The channel deliveries a change causes, written in its transaction (storage/channels/delivery-outbox.ts):
   * a new record, and a new revision whose content changed (title, body, severity, display or
   * follow-ups). A revision that only moves an operation's progress or carries ui effects is not
   * worth a buzz on a phone (docs/channels.md, "What is sent").
   */
  private deliveriesOf(record: NotificationRecord, event: NotificationEventType, before: Row<"Notification"> | undefined): RowWrite[] {
    const counted = (rows: number) => {
      if (rows > 0) this.queuedDeliveries = true;
    };
    if (event === "CREATED") return [{ ...outboxWrite(this.provider, record, "notification.created", record.createdAt), counted }];
    if (event !== "UPDATED" || !before || !contentChanged(toRecord(before), record)) return [];
    return [{ ...outboxWrite(this.provider, record, "notification.updated", record.updatedAt), counted }];
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
    const committed = stored.map((event, i): CommittedEvent => ({ seq: first + i, ...event }));
    this.appended.push(...committed);
    return committed;
  }

  private async append(
    personId: string | null,
    type: NotificationEventType,
    record: NotificationRecord,
    writes: readonly RowWrite[] = [],
  ): Promise<CommittedEvent> {
    const [event] = await this.appendMany([{ personId, type, record }], writes);
    return event!;
  }
}

/** The row a create inserts: its columns as the models' defaults fill them (lockVersion at its default). */
function newRow(draft: Extract<Decision, { kind: "create" }>["draft"], dedupKey: string | undefined): Row<"Notification"> & Record<string, ColumnValue> {
  const columns = toColumns(draft, storedActiveKey(draft), targetKeyOf(draft));
  return { id: newRowId(), ...columns, createdAt: draft.createdAt, dedupKey: dedupKey ?? null, serverInstanceId: null, lockVersion: 0 };
}

function contentChanged(before: NotificationRecord, after: NotificationRecord): boolean {
  return (
    before.title !== after.title ||
    before.body !== after.body ||
    before.severity !== after.severity ||
    JSON.stringify(before.displayOverrides) !== JSON.stringify(after.displayOverrides) ||
    JSON.stringify(before.actions) !== JSON.stringify(after.actions)
  );
}

function audienceOf(record: NotificationRecord): string | null {
  return record.scope === "APPLICATION" ? null : record.personId;
}
