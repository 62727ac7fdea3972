// RUN_ACTION invocations: a person runs a follow-up (with its form's values), the invocation is
// stored with its event in one transaction, producers receive it live or later (replay by
// cursor) and acknowledge it; the person's notification shows the latest state. Every write goes
// through the notifications' write path (NotificationWritePath.write), which publishes the
// events after the commit; this service adds only the producers' signal that an invocation is new.
import type { Clock } from "../domain/clock.ts";
import { isTerminal } from "../domain/enums.ts";
import { NotFoundError, NotificationTransitionError, RevisionConflictError, ValidationError } from "../domain/errors.ts";
import { applyForm } from "../domain/form.ts";
import { type AckResponse, decideAcknowledge, type InvocationRecord, isOutcome } from "../domain/invocation.ts";
import { decideRead, decideResolve } from "../domain/lifecycle.ts";
import type { NotificationRecord } from "../domain/notification.ts";
import { validateActionValues, validatePageSize } from "../domain/validation.ts";
import type { EventBus } from "../events/bus.ts";
import type { InvocationStore } from "../storage/invocations/invocation-store.ts";
import type { NotificationTx } from "../storage/notifications/notification-tx.ts";
import type { CursorCodec } from "./cursor.ts";
import type { NotificationWritePath } from "./notifications/write-path.ts";
import { newFact } from "./facts.ts";
import { REMEMBER_FACT_ACTION } from "./notification-service.ts";
import { resolveDisplay } from "../domain/presentation.ts";
import { ownedBy, type PluginScope } from "./producer-rights.ts";

export interface InvocationOptions {
  /** Invocations older than this are deleted by `sweep` (HERALD_INVOCATION_RETENTION_HOURS). */
  retentionMs: number;
}

/** Invocations deleted per statement, and statements per sweep: every step is bounded. */
const SWEEP_BATCH = 500;
const SWEEP_BATCHES = 20;

export interface InvocationPage {
  items: InvocationRecord[];
  /** Pass as `after` next time; present even when nothing was found (it still moves forward). */
  cursor: string;
  hasMore: boolean;
}

const DEFAULT_PAGE = 20;

export class InvocationService {
  constructor(
    private readonly writes: NotificationWritePath,
    private readonly invocations: InvocationStore,
    private readonly bus: EventBus,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly options: InvocationOptions,
  ) {}

  /**
   * A person runs a RUN_ACTION follow-up. Herald's own action (an observation's "Remember this")
   * is carried out in the same transaction and stored as ACKNOWLEDGED; any other waits PENDING
   * for its producer.
   */
  /**
   * `revision`: only while the notification is still at that revision (an action URL's,
   * RevisionConflictError otherwise). `fromInvocation`: the follow-up is one of that invocation's
   * direct display (the person's own invocation of this notification), not the notification's.
   */
  async invoke(
    personId: string,
    notificationId: string,
    actionId: string,
    values: unknown,
    revision: number | null = null,
    fromInvocation: string | null = null,
  ): Promise<InvocationRecord> {
    const now = this.clock.now();
    const submitted = validateActionValues(values);
    const invocation = await this.writes.write(
      async (tx) => {
        const found = await tx.viewFor(notificationId, personId);
        if (!found) throw new NotFoundError();
        const { record, receipt, view } = found;
        if (isTerminal(view.status)) throw new NotificationTransitionError(view, "INVOKED");
        if (revision !== null && record.revision !== revision) throw new RevisionConflictError(view);
        const offered = fromInvocation === null ? view.actions : await this.displayActionsOf(tx, fromInvocation, personId, record.id);
        const action = offered.find((a) => a.id === actionId);
        if (!action || action.kind !== "RUN_ACTION" || !action.actionId) {
          const of = fromInvocation === null ? "this notification" : "that invocation's display";
          throw new ValidationError("actionId", `actionId: not a RUN_ACTION follow-up of ${of}`);
        }
        const mapped = applyForm(action.form ?? null, action.fixedParams ?? null, submitted);
        const builtin = action.actionId === REMEMBER_FACT_ACTION && view.trigger.type === "OBSERVATION";
        let after = view;
        if (builtin) after = (await this.rememberObservation(tx, personId, record, actionId, now)).record;
        const shown = resolveDisplay(record.scope, record);
        const stored = await this.invocations.insert(tx.connection, {
          notificationId: record.id,
          notificationKey: record.key,
          personId,
          plugin: record.source.plugin,
          actionId,
          targetActionId: action.actionId,
          fixedParams: mapped.fixedParams,
          values: mapped.values,
          state: builtin ? "ACKNOWLEDGED" : "PENDING",
          message: null,
          presentation: shown.presentation,
          variant: shown.variant,
          display: null,
          displayActions: [],
          uiEffects: null,
          createdAt: now,
          acknowledgedAt: builtin ? now : null,
        });
        // Acting on a notification reads it (read implies seen), in the same transaction.
        const read = await tx.apply(decideRead(after, receipt, personId, now));
        await tx.appendEvent(personId, "INVOCATION", read.record);
        return stored;
      },
      { shared: true },
    );
    this.bus.publish({ kind: "invocation", invocation: { id: invocation.id, seq: invocation.seq, plugin: invocation.plugin } });
    return invocation;
  }

  /**
   * A producer reports how the invocation went, optionally with a direct display and refresh
   * effects for the person; the person's notification learns it live (an INVOCATION event).
   */
  async acknowledge(id: string, outcome: unknown, response: AckResponse, scope: PluginScope = null): Promise<InvocationRecord> {
    if (!isOutcome(outcome)) throw new ValidationError("outcome", "outcome: must be ACKNOWLEDGED or FAILED");
    const now = this.clock.now();
    return this.writes.write(
      async (tx) => {
        const current = await this.invocations.findForUpdate(tx.connection, id);
        // Another plugin's invocation is, for a bound key, one that does not exist.
        if (!current || !ownedBy(scope, current.plugin)) throw new NotFoundError("Action invocation not found");
        const decision = decideAcknowledge(current, outcome, response, now);
        if (decision.kind === "none") return decision.current;
        await this.invocations.settle(tx.connection, decision.next);
        const found = await tx.viewFor(current.notificationId, current.personId);
        if (found) await tx.appendEvent(current.personId, "INVOCATION", found.view);
        return decision.next;
      },
      { shared: true },
    );
  }

  /** The follow-ups of the direct display an earlier invocation got; another person's (or notification's) is absent. */
  private async displayActionsOf(tx: NotificationTx, invocationId: string, personId: string, notificationId: string) {
    const earlier = await this.invocations.findForUpdate(tx.connection, invocationId);
    if (!earlier || earlier.personId !== personId || earlier.notificationId !== notificationId) {
      throw new NotFoundError("Action invocation not found");
    }
    return earlier.displayActions;
  }

  /** The cursor of an invocation: pass it as `after` to resume behind it. */
  cursorOf(invocation: InvocationRecord): string {
    return this.cursors.encodeInvocationSeq(invocation.seq);
  }

  /** Validates a cursor before a stream opens, so a forged one fails the subscription, not the stream. */
  decodeCursor(cursor: string | null | undefined, field = "after"): number | null {
    return cursor ? this.cursors.decodeInvocationSeq(cursor, field) : null;
  }

  /** Polling: without `after` the PENDING invocations, oldest first; with it every one after it. */
  async page(plugin: string | null, after: string | null | undefined, first: number | null | undefined): Promise<InvocationPage> {
    const from = this.decodeCursor(after);
    const limit = first === null || first === undefined ? DEFAULT_PAGE : validatePageSize(first, "first");
    // The head is read before the rows: the returned cursor never passes an unread invocation.
    const head = await this.invocations.maxSeq();
    const rows = await this.invocations.read({ after: from ?? 0, upTo: head, plugin, state: from === null ? "PENDING" : null, limit: limit + 1 });
    const hasMore = rows.length > limit;
    const items = rows.slice(0, limit);
    // Without `after`, later PENDING ones may sit before settled ones: the cursor stays behind the last item then.
    const position = hasMore || (from === null && items.length > 0) ? (items.at(-1)?.seq ?? from ?? 0) : Math.max(from ?? 0, head);
    return { items, cursor: this.cursors.encodeInvocationSeq(position), hasMore };
  }

  /**
   * Deletes invocations past the retention, pending or settled: their values were for the
   * producer, which had the retention to read them. Returns how many went.
   */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.options.retentionMs);
    let removed = 0;
    for (let batch = 0; batch < SWEEP_BATCHES; batch++) {
      const count = await this.writes.write((tx) => this.invocations.deleteCreatedBefore(tx.connection, cutoff, SWEEP_BATCH), { shared: true });
      removed += count;
      if (count < SWEEP_BATCH) break;
    }
    return removed;
  }

  /** The latest invocation of each notification by the person (by anyone, for a producer). */
  latestOf(notificationIds: readonly string[], personId: string | null): Promise<Map<string, InvocationRecord>> {
    return this.invocations.latestOf(notificationIds, personId);
  }

  /**
   * "Remember this": the fact and the resolution commit with the invocation, so a second click
   * (or a second tab) finds the notification resolved and stores nothing twice.
   */
  private async rememberObservation(tx: NotificationTx, personId: string, record: NotificationRecord, actionId: string, now: Date) {
    if (record.scope !== "PERSON") throw new NotFoundError();
    const decision = decideResolve(record, { actionId, values: null }, null, now);
    if (decision.kind !== "none") {
      const action = record.actions.find((a) => a.id === actionId);
      const fact = String((action?.fixedParams as { fact?: unknown } | null)?.fact ?? "");
      if (fact !== "") await tx.rememberFact(newFact(personId, fact, record.engagementId, now));
    }
    return tx.apply(decision);
  }
}
