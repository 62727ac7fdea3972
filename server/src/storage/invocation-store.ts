// Stored action invocations. Writes run inside a notification transaction (the invocation commits
// with whatever else the click changed and with its event-log entry); reads page by `seq`.
import type { Presentation, Variant } from "../domain/enums.ts";
import type { InvocationRecord, InvocationState } from "../domain/invocation.ts";
import type { JsonObject, JsonValue } from "../domain/json.ts";
import type { Display } from "../domain/notification.ts";
import type { Db, Tx } from "./database.ts";
import type { ActionInvocation as InvocationRow, Prisma } from "./prisma-client/sqlite/client.ts";
import { StaleWrite } from "./retrying-transaction.ts";

const INVOCATION_COUNTER = "invocations";

export type NewInvocation = Omit<InvocationRecord, "id" | "seq">;

export class InvocationStore {
  constructor(
    private readonly db: Db,
    private readonly lockRows: boolean,
  ) {}

  /** The counter row must exist before a transaction increments it (as for the event log). */
  async init(): Promise<void> {
    await this.db.$executeRawUnsafe(
      `INSERT INTO "EventCounter" ("name", "value") VALUES ('${INVOCATION_COUNTER}', 0) ON CONFLICT ("name") DO NOTHING`,
    );
  }

  /**
   * Incrementing the counter row holds its lock until commit, so `seq` values become visible in
   * commit order and a reader that has seen seq 11 cannot miss a late-committing 10.
   */
  async insert(tx: Tx, invocation: NewInvocation): Promise<InvocationRecord> {
    const { value: seq } = await tx.eventCounter.update({ where: { name: INVOCATION_COUNTER }, data: { value: { increment: 1 } } });
    const row = await tx.actionInvocation.create({
      data: {
        ...invocation,
        seq,
        fixedParams: invocation.fixedParams === null ? null : JSON.stringify(invocation.fixedParams),
        values: invocation.values === null ? null : JSON.stringify(invocation.values),
        display: toJson(invocation.display),
        uiEffects: toJson(invocation.uiEffects),
      },
    });
    return toRecord(row);
  }

  async findForUpdate(tx: Tx, id: string): Promise<InvocationRecord | null> {
    if (this.lockRows) await tx.$queryRaw`SELECT 1 FROM "ActionInvocation" WHERE "id" = ${id} FOR UPDATE`;
    const row = await tx.actionInvocation.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  /** Compare-and-set from PENDING: a concurrent acknowledgement makes the unit of work run again. */
  async settle(tx: Tx, next: InvocationRecord): Promise<void> {
    const { count } = await tx.actionInvocation.updateMany({
      where: { id: next.id, state: "PENDING" },
      data: {
        state: next.state,
        message: next.message,
        display: toJson(next.display),
        uiEffects: toJson(next.uiEffects),
        acknowledgedAt: next.acknowledgedAt,
      },
    });
    if (count !== 1) throw new StaleWrite();
  }

  /** Deletes up to `limit` invocations made before `cutoff`, oldest first; returns how many. */
  async deleteCreatedBefore(cutoff: Date, limit: number): Promise<number> {
    const rows = await this.db.actionInvocation.findMany({ where: { createdAt: { lt: cutoff } }, orderBy: { seq: "asc" }, select: { id: true }, take: limit });
    if (rows.length === 0) return 0;
    const { count } = await this.db.actionInvocation.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
    return count;
  }

  async maxSeq(): Promise<number> {
    const row = await this.db.actionInvocation.findFirst({ orderBy: { seq: "desc" }, select: { seq: true } });
    return row?.seq ?? 0;
  }

  /**
   * Invocations with `after < seq <= upTo`, oldest first, optionally of one plugin and one state.
   * `upTo` is a head read beforehand: a reader moves its position there even when nothing of its
   * plugin lies in between.
   */
  async read(query: { after: number; upTo: number; plugin: string | null; state: InvocationState | null; limit: number }): Promise<InvocationRecord[]> {
    const where: Prisma.ActionInvocationWhereInput = {
      seq: { gt: query.after, lte: query.upTo },
      ...(query.plugin !== null ? { plugin: query.plugin } : {}),
      ...(query.state !== null ? { state: query.state } : {}),
    };
    const rows = await this.db.actionInvocation.findMany({ where, orderBy: { seq: "asc" }, take: query.limit });
    return rows.map(toRecord);
  }

  async findById(id: string): Promise<InvocationRecord | null> {
    const row = await this.db.actionInvocation.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  /**
   * The latest invocation of each of the notifications (by the person; by anyone for null), in
   * two statements whatever their number: the highest sequence number per notification, then
   * those rows. A page of notifications asks once, not once per row.
   */
  async latestOf(notificationIds: readonly string[], personId: string | null): Promise<Map<string, InvocationRecord>> {
    if (notificationIds.length === 0) return new Map();
    const latest = await this.db.actionInvocation.groupBy({
      by: ["notificationId"],
      where: { notificationId: { in: [...notificationIds] }, ...(personId !== null ? { personId } : {}) },
      _max: { seq: true },
    });
    const seqs = latest.map((g) => g._max.seq).filter((seq): seq is number => seq !== null);
    if (seqs.length === 0) return new Map();
    const rows = await this.db.actionInvocation.findMany({ where: { seq: { in: seqs } } });
    return new Map(rows.map((row) => [row.notificationId, toRecord(row)]));
  }
}

function toRecord(row: InvocationRow): InvocationRecord {
  return {
    id: row.id,
    seq: row.seq,
    notificationId: row.notificationId,
    notificationKey: row.notificationKey,
    personId: row.personId,
    plugin: row.plugin,
    actionId: row.actionId,
    targetActionId: row.targetActionId,
    fixedParams: row.fixedParams === null ? null : (JSON.parse(row.fixedParams) as JsonObject),
    values: row.values === null ? null : (JSON.parse(row.values) as JsonValue),
    state: row.state as InvocationState,
    message: row.message,
    presentation: row.presentation as Presentation,
    variant: row.variant as Variant,
    display: row.display === null ? null : (JSON.parse(row.display) as Display),
    uiEffects: row.uiEffects === null ? null : (JSON.parse(row.uiEffects) as JsonObject),
    createdAt: row.createdAt,
    acknowledgedAt: row.acknowledgedAt,
  };
}

const toJson = (value: object | null): string | null => (value === null ? null : JSON.stringify(value));
