// Stored action invocations. Writes run inside a notification transaction (the invocation commits
// with whatever else the click changed and with its event-log entry); reads page by `seq`.
import type { Presentation, Variant } from "../../domain/enums.ts";
import type { InvocationRecord, InvocationState } from "../../domain/invocation.ts";
import type { JsonObject, JsonValue } from "../../domain/json.ts";
import type { Display, FollowUpAction } from "../../domain/notification.ts";
import type { Database, Tx } from "../connection/database.ts";
import { newRowId } from "../sql/row-id.ts";
import { forUpdate } from "../sql/sql.ts";
import { StaleWrite } from "../connection/retrying-transaction.ts";
import type { Row } from "../sql/stored-values.ts";
import * as run from "../sql/run.ts";

type InvocationRow = Row<"ActionInvocation">;

const INVOCATION_COUNTER = "invocations";

export type NewInvocation = Omit<InvocationRecord, "id" | "seq">;

export class InvocationStore {
  constructor(private readonly database: Database) {}

  /** The counter row must exist before a transaction increments it (as for the event log). */
  async init(): Promise<void> {
    await run.execute(
      this.database.db,
      this.database.build
        .insertInto("EventCounter")
        .values({ name: INVOCATION_COUNTER, value: 0 })
        .onConflict((conflict) => conflict.column("name").doNothing()),
    );
  }

  /**
   * Incrementing the counter row holds its lock until commit, so `seq` values become visible in
   * commit order and a reader that has seen seq 11 cannot miss a late-committing 10.
   */
  async insert(tx: Tx, invocation: NewInvocation): Promise<InvocationRecord> {
    const { build } = this.database;
    const [counter] = await run.rows(
      tx,
      "EventCounter",
      build
        .updateTable("EventCounter")
        .set((eb) => ({ value: eb("value", "+", 1) }))
        .where("name", "=", INVOCATION_COUNTER)
        .returning("value"),
    );
    if (!counter) throw new Error(`the ${INVOCATION_COUNTER} counter row is missing (InvocationStore.init)`);
    // The models' cuid default is client-side; the insert brings its own id of that shape (row-id.ts).
    const insert = build
      .insertInto("ActionInvocation")
      .values({
        ...columnsOf(invocation),
        id: newRowId(),
        seq: counter.value,
        fixedParams: invocation.fixedParams === null ? null : JSON.stringify(invocation.fixedParams),
        values: invocation.values === null ? null : JSON.stringify(invocation.values),
        display: displayJson(invocation),
        uiEffects: toJson(invocation.uiEffects),
        createdAt: this.database.time(invocation.createdAt),
        acknowledgedAt: invocation.acknowledgedAt === null ? null : this.database.time(invocation.acknowledgedAt),
      })
      .returningAll();
    const [row] = await run.rows(tx, "ActionInvocation", insert);
    return toRecord(row!);
  }

  async findForUpdate(tx: Tx, id: string): Promise<InvocationRecord | null> {
    const query = this.byId(id);
    const row = await run.first(tx, "ActionInvocation", forUpdate(this.database.provider, query));
    return row ? toRecord(row) : null;
  }

  /** Compare-and-set from PENDING: a concurrent acknowledgement makes the unit of work run again. */
  async settle(tx: Tx, next: InvocationRecord): Promise<void> {
    const count = await run.execute(
      tx,
      this.database.build
        .updateTable("ActionInvocation")
        .set({
          state: next.state,
          message: next.message,
          display: displayJson(next),
          uiEffects: toJson(next.uiEffects),
          acknowledgedAt: next.acknowledgedAt === null ? null : this.database.time(next.acknowledgedAt),
        })
        .where("id", "=", next.id)
        .where("state", "=", "PENDING"),
    );
    if (count !== 1) throw new StaleWrite();
  }

  /** Deletes up to `limit` invocations made before `cutoff`, oldest first; returns how many. */
  async deleteCreatedBefore(tx: Tx, cutoff: Date, limit: number): Promise<number> {
    const { build } = this.database;
    const rows = await run.rows(
      tx,
      "ActionInvocation",
      build.selectFrom("ActionInvocation").select("id").where("createdAt", "<", this.database.time(cutoff)).orderBy("seq", "asc").limit(limit),
    );
    if (rows.length === 0) return 0;
    return run.execute(
      tx,
      build.deleteFrom("ActionInvocation").where(
        "id",
        "in",
        rows.map((r) => r.id),
      ),
    );
  }

  async maxSeq(): Promise<number> {
    const row = await run.first(
      this.database.db,
      "ActionInvocation",
      this.database.build.selectFrom("ActionInvocation").select("seq").orderBy("seq", "desc").limit(1),
    );
    return row?.seq ?? 0;
  }

  /**
   * Invocations with `after < seq <= upTo`, oldest first, optionally of one plugin and one state.
   * `upTo` is a head read beforehand: a reader moves its position there even when nothing of its
   * plugin lies in between.
   */
  async read(query: { after: number; upTo: number; plugin: string | null; state: InvocationState | null; limit: number }): Promise<InvocationRecord[]> {
    let select = this.database.build.selectFrom("ActionInvocation").selectAll().where("seq", ">", query.after).where("seq", "<=", query.upTo);
    if (query.plugin !== null) select = select.where("plugin", "=", query.plugin);
    if (query.state !== null) select = select.where("state", "=", query.state);
    const rows = await run.rows(this.database.db, "ActionInvocation", select.orderBy("seq", "asc").limit(query.limit));
    return rows.map(toRecord);
  }

  async findById(id: string): Promise<InvocationRecord | null> {
    const row = await run.first(this.database.db, "ActionInvocation", this.byId(id));
    return row ? toRecord(row) : null;
  }

  /**
   * The latest invocation of each of the notifications (by the person; by anyone for null), in
   * two statements whatever their number: the highest sequence number per notification, then
   * those rows. A page of notifications asks once, not once per row.
   */
  async latestOf(notificationIds: readonly string[], personId: string | null): Promise<Map<string, InvocationRecord>> {
    if (notificationIds.length === 0) return new Map();
    const { build } = this.database;
    let latest = build
      .selectFrom("ActionInvocation")
      .select((eb) => eb.fn.max("seq").as("seq"))
      .where("notificationId", "in", notificationIds)
      .groupBy("notificationId");
    if (personId !== null) latest = latest.where("personId", "=", personId);
    const seqs = (await run.raw(this.database.db, latest))
      .map((g) => g.seq)
      .filter((seq) => seq !== null && seq !== undefined)
      .map(Number);
    if (seqs.length === 0) return new Map();
    const rows = await run.rows(this.database.db, "ActionInvocation", build.selectFrom("ActionInvocation").selectAll().where("seq", "in", seqs));
    return new Map(rows.map((row) => [row.notificationId, toRecord(row)]));
  }

  private byId(id: string) {
    return this.database.build.selectFrom("ActionInvocation").selectAll().where("id", "=", id);
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
    ...fromDisplayJson(row.display),
    uiEffects: row.uiEffects === null ? null : (JSON.parse(row.uiEffects) as JsonObject),
    createdAt: row.createdAt,
    acknowledgedAt: row.acknowledgedAt,
  };
}

const toJson = (value: object | null): string | null => (value === null ? null : JSON.stringify(value));

const columnsOf = ({ displayActions: _, ...columns }: NewInvocation) => columns;

// A direct display's follow-ups are kept in the display's own JSON column: they exist only with a
// display, and no migration is needed for them (docs/decisions.md, "Direct action displays").
function displayJson(invocation: Pick<InvocationRecord, "display" | "displayActions">): string | null {
  if (invocation.display === null) return null;
  return JSON.stringify(invocation.displayActions.length > 0 ? { ...invocation.display, actions: invocation.displayActions } : invocation.display);
}

function fromDisplayJson(json: string | null): Pick<InvocationRecord, "display" | "displayActions"> {
  if (json === null) return { display: null, displayActions: [] };
  const { actions, ...display } = JSON.parse(json) as Display & { actions?: FollowUpAction[] };
  return { display, displayActions: actions ?? [] };
}
