// Reads and writes notifications. Every write goes through NotificationTx.apply, which stores
// the decided state and appends its event-log entry in the same transaction.
import { assetIdsOf } from "../domain/assets.ts";
import { isTerminal, type NotificationEventType } from "../domain/enums.ts";
import type { EffectiveFilter, Position } from "../domain/filter.ts";
import { type Decision, viewOf } from "../domain/lifecycle.ts";
import { activeKeyOf, type NotificationRecord, type Receipt, type Target, targetKeyOf } from "../domain/notification.ts";
import { writeAssetReferences } from "./asset-references.ts";
import type { Database, Db, Tx } from "./database.ts";
import { serializeSnapshot, toColumns, toReceipt, toRecord } from "./notification-mapper.ts";
import type { FactRow } from "./directory-store.ts";
import type { Notification as NotificationRow, Prisma } from "./prisma-client/sqlite/client.ts";
import { retryingTransaction, StaleWrite } from "./retrying-transaction.ts";

export interface StoredEvent {
  seq: number;
  /** The record as serialized into the log (what travels on the bus). */
  snapshot: string;
  /** null: every person (a global change of an APPLICATION notification). */
  personId: string | null;
  type: NotificationEventType;
  notificationId: string;
  revision: number;
}

export interface Applied {
  record: NotificationRecord;
  event: StoredEvent | null;
}

const EVENT_COUNTER = "events";

export class NotificationStore {
  private readonly db: Db;
  private readonly lockRows: boolean;
  constructor(database: Database) {
    this.db = database.db;
    this.lockRows = database.provider === "postgresql";
  }

  /** The counter row must exist before any transaction increments it (see models.prisma). */
  async init(): Promise<void> {
    // One statement, no read-then-write transaction: on SQLite another process (a CLI command
    // beside a running server) may write between the two and fail an upgrade with SQLITE_BUSY.
    await this.db.$executeRawUnsafe(`INSERT INTO "EventCounter" ("name", "value") VALUES ('${EVENT_COUNTER}', 0) ON CONFLICT ("name") DO NOTHING`);
  }

  /**
   * Runs one unit of work in a transaction, retrying it from the start when a concurrent
   * writer won a race (unique active key, optimistic lock, or a PostgreSQL serialization abort).
   */
  async transaction<T>(work: (tx: NotificationTx) => Promise<T>): Promise<T> {
    return retryingTransaction(this.db, (tx) => work(new NotificationTx(tx, this.lockRows)));
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
   * One page of a person's notifications, newest first. The person's own rows and the shared
   * APPLICATION rows are read by two keyset queries, each served by its own index, and merged:
   * an OR across both would defeat the indexes' ordering.
   */
  async page(
    personId: string,
    filter: EffectiveFilter,
    page: { after: Position | null; before: Position | null; limit: number; inverted: boolean },
    now: Date,
  ): Promise<NotificationRecord[]> {
    const order: Prisma.NotificationOrderByWithRelationInput[] = page.inverted
      ? [{ createdAt: "asc" }, { id: "asc" }]
      : [{ createdAt: "desc" }, { id: "desc" }];
    const keyset = keysetWhere(page.after, page.before);
    const queries: Promise<NotificationRecord[]>[] = [];
    const own = ownWhere(personId, filter, now);
    if (own) {
      queries.push(
        this.db.notification
          .findMany({ where: { AND: [own, keyset] }, orderBy: order, take: page.limit })
          .then((rows) => rows.map(toRecord)),
      );
    }
    const shared = sharedWhere(personId, filter, now);
    if (shared) {
      queries.push(
        this.db.notification
          .findMany({
            where: { AND: [shared, keyset] },
            orderBy: order,
            take: page.limit,
            include: { receipts: { where: { personId } } },
          })
          .then((rows) => rows.map((row) => viewOf(toRecord(row), row.receipts[0] ? toReceipt(row.receipts[0]) : null))),
      );
    }
    const merged = (await Promise.all(queries)).flat();
    const sign = page.inverted ? -1 : 1;
    merged.sort((a, b) => sign * compareNewestFirst(a, b));
    return merged.slice(0, page.limit);
  }

  async count(personId: string, filter: EffectiveFilter, now: Date): Promise<number> {
    const own = ownWhere(personId, filter, now);
    const shared = sharedWhere(personId, filter, now);
    const [a, b] = await Promise.all([
      own ? this.db.notification.count({ where: own }) : 0,
      shared ? this.db.notification.count({ where: shared }) : 0,
    ]);
    return a + b;
  }

  /** Active records with a retention policy (and request, when given): the retention sweeps. */
  async activeIdsWithRetention(policy: string, requestId: string | null): Promise<string[]> {
    const rows = await this.db.notification.findMany({
      where: { retentionPolicy: policy, activeKey: { not: null }, ...(requestId !== null ? { requestId } : {}) },
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
    const own = ownWhere(personId, filter, now);
    const shared = sharedWhere(personId, filter, now);
    const [a, b] = await Promise.all([
      own ? this.db.notification.findMany({ where: own, select: { id: true }, take: limit }) : [],
      shared ? this.db.notification.findMany({ where: shared, select: { id: true }, take: limit }) : [],
    ]);
    return [...a, ...b].map((r) => r.id);
  }
}

export class NotificationTx {
  /** lockVersion of each row as this transaction read it: the optimistic lock of apply(). */
  private readonly seen = new Map<string, number>();
  /** Assets each row's follow-ups named as this transaction read it (its AssetReference rows). */
  private readonly seenAssets = new Map<string, string[]>();
  /**
   * On PostgreSQL the row a decision is based on is read FOR UPDATE, so writers of one key queue
   * up instead of racing and retrying. SQLite has a single writer and needs no row locks.
   */
  constructor(
    private readonly tx: Tx,
    private readonly lockRows: boolean,
  ) {}

  /** The transaction itself, for other stores' writes that must commit with this change (action invocations). */
  get prisma(): Tx {
    return this.tx;
  }

  /** An event that changes no notification row (the person's action invocation changed state). */
  appendEvent(personId: string | null, type: NotificationEventType, record: NotificationRecord): Promise<StoredEvent> {
    return this.append(personId, type, record);
  }

  private remember(row: NotificationRow): NotificationRecord {
    this.seen.set(row.id, row.lockVersion);
    const record = toRecord(row);
    this.seenAssets.set(row.id, assetIdsOf(record.actions));
    return record;
  }

  async findActive(target: Target, key: string): Promise<NotificationRecord | null> {
    const activeKey = activeKeyOf(target, key);
    if (this.lockRows) await this.tx.$queryRaw`SELECT 1 FROM "Notification" WHERE "activeKey" = ${activeKey} FOR UPDATE`;
    const row = await this.tx.notification.findUnique({ where: { activeKey } });
    return row ? this.remember(row) : null;
  }

  async findById(id: string): Promise<NotificationRecord | null> {
    if (this.lockRows) await this.tx.$queryRaw`SELECT 1 FROM "Notification" WHERE "id" = ${id} FOR UPDATE`;
    const row = await this.tx.notification.findUnique({ where: { id } });
    return row ? this.remember(row) : null;
  }

  /** A notification raised earlier for the same (person, trigger), whatever its state now. */
  async findByDedupKey(dedupKey: string): Promise<NotificationRecord | null> {
    const row = await this.tx.notification.findUnique({ where: { dedupKey } });
    return row ? toRecord(row) : null;
  }

  /**
   * SQLite: takes the database's write lock before the transaction reads. A deferred
   * transaction that read first cannot take it once another connection (a CLI command beside
   * the server) committed meanwhile; one that asks first waits its turn instead. PostgreSQL
   * locks rows as it goes and needs nothing here.
   */
  async claimWriter(): Promise<void> {
    if (!this.lockRows) await this.tx.$executeRawUnsafe(`UPDATE "EventCounter" SET "value" = "value" WHERE "name" = '${EVENT_COUNTER}'`);
  }

  /** The given dedup keys that already have a notification (in any state). */
  async firedDedupKeys(dedupKeys: string[]): Promise<Set<string>> {
    if (dedupKeys.length === 0) return new Set();
    const rows = await this.tx.notification.findMany({ where: { dedupKey: { in: dedupKeys } }, select: { dedupKey: true } });
    return new Set(rows.map((r) => r.dedupKey!));
  }

  /** The given active keys that have an active occurrence. */
  async activeKeysAmong(activeKeys: string[]): Promise<Set<string>> {
    if (activeKeys.length === 0) return new Set();
    const rows = await this.tx.notification.findMany({ where: { activeKey: { in: activeKeys } }, select: { activeKey: true } });
    return new Set(rows.map((r) => r.activeKey!));
  }

  /**
   * Writes many new records and their CREATED events with one statement each (the scanner's
   * batches). The counter moves by the batch's size in one step, the last statement but one,
   * so the lock on it stays as short as apply()'s.
   */
  async createMany(decisions: Extract<Decision, { kind: "create" }>[]): Promise<Applied[]> {
    if (decisions.length === 0) return [];
    const rows = await this.tx.notification.createManyAndReturn({
      data: decisions.map(({ draft, dedupKey }) => ({
        ...toColumns(draft, activeKeyOf(draft, draft.key), targetKeyOf(draft)),
        createdAt: draft.createdAt,
        dedupKey: dedupKey ?? null,
      })),
    });
    const { value: last } = await this.tx.eventCounter.update({ where: { name: EVENT_COUNTER }, data: { value: { increment: rows.length } } });
    const applied = rows.map((row, i): Applied => {
      const record = toRecord(row);
      const event: StoredEvent = {
        seq: last - rows.length + 1 + i,
        snapshot: serializeSnapshot(record),
        personId: audienceOf(record),
        type: "CREATED",
        notificationId: record.id,
        revision: record.revision,
      };
      return { record, event };
    });
    await this.tx.notificationEvent.createMany({
      data: applied.map(({ event }) => {
        const { seq, personId, type, notificationId, revision, snapshot } = event!;
        return { seq, personId, type, notificationId, revision, snapshot };
      }),
    });
    return applied;
  }

  /** A fact remembered as part of a notification change (an observation's "Remember this"). */
  async rememberFact(fact: FactRow): Promise<void> {
    await this.tx.rememberedFact.create({ data: fact });
  }

  async findReceipt(notificationId: string, personId: string): Promise<Receipt | null> {
    const row = await this.tx.notificationReceipt.findUnique({ where: { notificationId_personId: { notificationId, personId } } });
    return row ? toReceipt(row) : null;
  }

  /** Writes a decision and its event. Returns the record as the deciding party sees it. */
  async apply(decision: Decision): Promise<Applied> {
    switch (decision.kind) {
      case "none":
        return { record: decision.current, event: null };
      case "create": {
        const draft = decision.draft;
        const row = await this.tx.notification.create({
          data: {
            ...toColumns(draft, activeKeyOf(draft, draft.key), targetKeyOf(draft)),
            createdAt: draft.createdAt,
            dedupKey: decision.dedupKey ?? null,
          },
        });
        const record = toRecord(row);
        await writeAssetReferences(this.tx, record.id, [], assetIdsOf(record.actions));
        return { record, event: await this.append(audienceOf(record), decision.event, record) };
      }
      case "update": {
        const next = decision.next;
        const lockVersion = this.seen.get(next.id);
        if (lockVersion === undefined) throw new Error("apply(update) needs the record read in the same transaction");
        const activeKey = isTerminal(next.status) ? null : activeKeyOf(next, next.key);
        // The decision was made from the row as read; if another writer changed it since, the
        // lock version moved on, nothing is written, and the unit of work is decided again.
        const { count } = await this.tx.notification.updateMany({
          where: { id: next.id, lockVersion },
          data: { ...toColumns(next, activeKey, targetKeyOf(next)), lockVersion: lockVersion + 1 },
        });
        if (count !== 1) throw new StaleWrite();
        this.seen.set(next.id, lockVersion + 1);
        const assets = assetIdsOf(next.actions);
        await writeAssetReferences(this.tx, next.id, this.seenAssets.get(next.id) ?? [], assets);
        this.seenAssets.set(next.id, assets);
        if (decision.resetReceipts) {
          await this.tx.notificationReceipt.updateMany({
            where: { notificationId: next.id },
            data: { deliveredAt: null, seenAt: null, dismissedAt: null, dismissReason: null, updatedAt: next.updatedAt },
          });
        }
        return { record: next, event: await this.append(audienceOf(next), decision.event, next) };
      }
      case "receipt": {
        const { notificationId, personId, ...fields } = decision.receipt;
        // Personal state was decided against this revision of the shared record (a dismissal
        // checks expectedRevision): make sure no producer change slipped in since it was read.
        const lockVersion = this.seen.get(notificationId);
        if (lockVersion === undefined) throw new Error("apply(receipt) needs the record read in the same transaction");
        const { count } = await this.tx.notification.updateMany({ where: { id: notificationId, lockVersion }, data: { lockVersion } });
        if (count !== 1) throw new StaleWrite();
        await this.tx.notificationReceipt.upsert({
          where: { notificationId_personId: { notificationId, personId } },
          create: { notificationId, personId, ...fields, updatedAt: fields.updatedAt ?? new Date() },
          update: { ...fields, updatedAt: fields.updatedAt ?? new Date() },
        });
        return { record: decision.record, event: await this.append(personId, decision.event, decision.record) };
      }
    }
  }

  /**
   * Appends to the event log. Incrementing the counter row takes its lock until commit, so
   * sequence numbers become visible in commit order (why: docs/event-stream.md, "Sequence numbers").
   * It is the last statement of the transaction, which keeps the lock short.
   */
  private async append(personId: string | null, type: NotificationEventType, record: NotificationRecord): Promise<StoredEvent> {
    const snapshot = serializeSnapshot(record);
    const { value: seq } = await this.tx.eventCounter.update({ where: { name: EVENT_COUNTER }, data: { value: { increment: 1 } } });
    await this.tx.notificationEvent.create({
      data: { seq, personId, type, notificationId: record.id, revision: record.revision, snapshot },
    });
    return { seq, snapshot, personId, type, notificationId: record.id, revision: record.revision };
  }
}

function audienceOf(record: NotificationRecord): string | null {
  return record.scope === "APPLICATION" ? null : record.personId;
}

function compareNewestFirst(a: NotificationRecord, b: NotificationRecord): number {
  const t = b.createdAt.getTime() - a.createdAt.getTime();
  if (t !== 0) return t;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

function keysetWhere(after: Position | null, before: Position | null): Prisma.NotificationWhereInput {
  const parts: Prisma.NotificationWhereInput[] = [];
  // The plain range bound beside the OR is what lets both databases use the (personId,
  // createdAt, id) index as a range; the OR alone is applied as a filter after a scan.
  if (after) {
    parts.push({ createdAt: { lte: after.createdAt } });
    parts.push({ OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] });
  }
  if (before) {
    parts.push({ createdAt: { gte: before.createdAt } });
    parts.push({ OR: [{ createdAt: { gt: before.createdAt } }, { createdAt: before.createdAt, id: { gt: before.id } }] });
  }
  return { AND: parts };
}

/** The person's own rows: PERSON ones addressed to them and SESSION ones of sessions they own. */
function ownWhere(personId: string, f: EffectiveFilter, now: Date): Prisma.NotificationWhereInput | null {
  if (f.scope === "APPLICATION" || f.statuses.length === 0) return null;
  return {
    personId,
    status: { in: [...f.statuses] },
    ...(f.scope ? { scope: f.scope } : {}),
    ...(f.sessionId ? { sessionId: f.sessionId } : {}),
    ...(f.engagementId ? { engagementId: f.engagementId } : {}),
    ...contentWhere(f),
    AND: [
      f.includeSnoozed ? {} : { OR: [{ snoozedUntil: null }, { snoozedUntil: { lte: now } }] },
      f.includeStale ? {} : { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    ],
  };
}

/**
 * Shared APPLICATION rows as this person sees them: the stored status is the producer's (PENDING
 * while active), and the person's own seen/dismissed/snoozed state lives in their receipt.
 */
function sharedWhere(personId: string, f: EffectiveFilter, now: Date): Prisma.NotificationWhereInput | null {
  if ((f.scope && f.scope !== "APPLICATION") || f.sessionId || f.statuses.length === 0) return null;
  const mine = (where: Prisma.NotificationReceiptWhereInput): Prisma.NotificationWhereInput => ({
    receipts: { some: { personId, ...where } },
  });
  const notMine = (where: Prisma.NotificationReceiptWhereInput): Prisma.NotificationWhereInput => ({
    receipts: { none: { personId, ...where } },
  });
  const byStatus: Prisma.NotificationWhereInput[] = f.statuses.map((status) => {
    switch (status) {
      case "RESOLVED":
      case "EXPIRED":
        return { status };
      case "DISMISSED":
        return { status: "PENDING", ...mine({ dismissedAt: { not: null } }) };
      case "SEEN":
        return { status: "PENDING", ...mine({ dismissedAt: null, seenAt: { not: null } }) };
      case "DELIVERED":
        return { status: "PENDING", ...mine({ dismissedAt: null, seenAt: null, deliveredAt: { not: null } }) };
      case "PENDING":
        return {
          status: "PENDING",
          ...notMine({ OR: [{ dismissedAt: { not: null } }, { seenAt: { not: null } }, { deliveredAt: { not: null } }] }),
        };
    }
  });
  return {
    scope: "APPLICATION",
    ...(f.engagementId ? { engagementId: f.engagementId } : {}),
    ...contentWhere(f),
    AND: [
      { OR: byStatus },
      f.includeSnoozed ? {} : notMine({ snoozedUntil: { gt: now } }),
      f.includeStale ? {} : { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    ],
  };
}

/** Severity and source-plugin filters: plain columns of the shared record, the same for every reader. */
function contentWhere(f: EffectiveFilter): Prisma.NotificationWhereInput {
  return {
    ...(f.severities ? { severity: { in: [...f.severities] } } : {}),
    ...(f.plugins ? { sourcePlugin: { in: [...f.plugins] } } : {}),
  };
}
