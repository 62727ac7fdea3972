// What a person does to their notifications: reading state (seen, read, unread), dismissal,
// snoozes, one by one or for a whole filtered list; and the marks made on their behalf (delivery,
// snoozes waking).
import type { Clock } from "../../domain/clock.ts";
import { type EffectiveFilter, effectiveFilter, type NotificationFilter, unreadOnly, unseenOnly } from "../../domain/filter.ts";
import {
  type Decision,
  decideDelivered,
  decideDismiss,
  decideRead,
  decideSeen,
  decideSnooze,
  decideUnread,
  decideUnsnooze,
  decideWake,
} from "../../domain/lifecycle.ts";
import type { NotificationRecord, Receipt } from "../../domain/notification.ts";
import { validateIds, validateReason, validateSnoozeUntil } from "../../domain/validation.ts";
import type { NotificationTx } from "../../storage/notifications/notification-tx.ts";
import { ignoreEndedMeanwhile, ignoreNotFound, type NotificationWritePath, YIELD_EVERY, yieldToOtherRequests } from "./write-path.ts";

const MARK_ALL_LIMIT = 10_000;
/** Records marked per transaction by markAll*: small enough that other writers wait at most one chunk. */
const MARK_ALL_CHUNK = 100;

/** decideSeen, decideRead, decideUnread: one person's reading state of one record. */
type ReadingDecision = (view: NotificationRecord, receipt: Receipt | null, personId: string, now: Date) => Decision;

export class PersonMarks {
  constructor(
    private readonly writes: NotificationWritePath,
    private readonly clock: Clock,
  ) {}

  async dismiss(personId: string, id: string, expectedRevision: number | null, reason: unknown): Promise<NotificationRecord> {
    const now = this.clock.now();
    const validReason = validateReason(reason);
    return this.writes.changeAsPerson(personId, id, (view, receipt) => decideDismiss(view, receipt, personId, expectedRevision, validReason, now));
  }

  /** Marks the given notifications seen; ids the person cannot see are ignored. */
  markSeen(personId: string, ids: readonly string[]): Promise<NotificationRecord[]> {
    return this.markEach(personId, ids, decideSeen);
  }

  /** Marks the given notifications read (and so seen); ids the person cannot see are ignored. */
  markRead(personId: string, ids: readonly string[]): Promise<NotificationRecord[]> {
    return this.markEach(personId, ids, decideRead);
  }

  /** Marks the given notifications unread; seen stays. Ids the person cannot see are ignored. */
  markUnread(personId: string, ids: readonly string[]): Promise<NotificationRecord[]> {
    return this.markEach(personId, ids, decideUnread);
  }

  /** Beyond the per-call id limit of markSeen: the ids come from the store, not the caller. */
  markAllSeen(personId: string, filter: NotificationFilter | null | undefined): Promise<number> {
    return this.markAll(personId, unseenOnly(effectiveFilter(filter)), decideSeen, (r) => r.status === "SEEN");
  }

  /** Marks read what the filtered list holds unread; how many changed. */
  markAllRead(personId: string, filter: NotificationFilter | null | undefined): Promise<number> {
    return this.markAll(personId, unreadOnly(effectiveFilter(filter)), decideRead, (r) => r.readAt !== null);
  }

  /**
   * Dismisses what the person has seen at its current revision ("Clear all"); a revision that
   * arrived after they saw it, and anything they cannot dismiss, stays. APPLICATION records are
   * dismissed for this person only (their receipt), as dismissNotification does. Each record is
   * checked again inside its chunk's transaction, so a revision published after the ids were
   * listed is not dismissed.
   */
  async dismissAllSeen(personId: string, filter: NotificationFilter | null | undefined): Promise<number> {
    const now = this.clock.now();
    const seenOnly = { ...effectiveFilter(filter), statuses: effectiveFilter(filter).statuses.filter((s) => s === "SEEN") };
    const records = await this.inChunks(personId, seenOnly, async (tx, chunk) => {
      const decisions: Decision[] = [];
      for (const id of chunk) {
        const decision = await this.writes
          .decideAsPerson(tx, personId, id, (view, receipt) =>
            view.status === "SEEN" ? decideDismiss(view, receipt, personId, view.revision, "cleared", now) : { kind: "none", current: view },
          )
          .catch(ignoreEndedMeanwhile);
        if (decision && decision.kind !== "none") decisions.push(decision);
      }
      return decisions;
    });
    return records.filter((r) => r.status === "DISMISSED").length;
  }

  async snooze(personId: string, id: string, until: unknown): Promise<NotificationRecord> {
    const now = this.clock.now();
    const validUntil = validateSnoozeUntil(until, now);
    return this.writes.changeAsPerson(personId, id, (view, receipt) => decideSnooze(view, receipt, personId, validUntil, now));
  }

  async unsnooze(personId: string, id: string): Promise<NotificationRecord> {
    const now = this.clock.now();
    return this.writes.changeAsPerson(personId, id, (view, receipt) => decideUnsnooze(view, receipt, personId, now));
  }

  /** A notification reached a connected client of its reader (a shared one: for this person). */
  async markDelivered(personId: string, id: string): Promise<void> {
    const now = this.clock.now();
    await this.writes.changeAsPerson(personId, id, (view, receipt) => decideDelivered(view, receipt, personId, now)).catch(ignoreNotFound);
  }

  /** Ends the snoozes whose time has passed; returns how many woke. */
  async wakeDueSnoozes(limit = 500): Promise<number> {
    const now = this.clock.now();
    let woken = 0;
    for (const [i, due] of (await this.writes.store.dueSnoozes(now, limit)).entries()) {
      if (i > 0 && i % YIELD_EVERY === 0) await yieldToOtherRequests();
      const record = await this.writes
        .changeAsPerson(due.personId, due.notificationId, (view, receipt) => decideWake(view, receipt, due.personId, now))
        .catch(ignoreEndedMeanwhile);
      if (record && record.snoozedUntil === null) woken++;
    }
    return woken;
  }

  /**
   * One transaction for the whole call, a handful of statements whatever the number of ids (see
   * NotificationTx.applyBatch); results follow the order of `ids`.
   */
  private async markEach(personId: string, ids: readonly string[], decide: ReadingDecision): Promise<NotificationRecord[]> {
    const valid = validateIds(ids);
    const now = this.clock.now();
    return this.writes.changeMany((tx) => this.decideBatch(tx, personId, valid, decide, now));
  }

  private async markAll(personId: string, filter: EffectiveFilter, decide: ReadingDecision, changedTo: (r: NotificationRecord) => boolean): Promise<number> {
    const now = this.clock.now();
    const records = await this.inChunks(personId, filter, (tx, chunk) => this.decideBatch(tx, personId, chunk, decide, now));
    return records.filter(changedTo).length;
  }

  /**
   * What a filtered list holds (up to MARK_ALL_LIMIT), decided in chunks of one transaction each,
   * not in one: thousands of rows in one would hold the write lock (SQLite's, or PostgreSQL's event
   * counter row) for seconds while every other writer waits.
   */
  private async inChunks(
    personId: string,
    filter: EffectiveFilter,
    decideChunk: (tx: NotificationTx, chunk: readonly string[]) => Promise<Decision[]>,
  ): Promise<NotificationRecord[]> {
    const ids = (await this.writes.store.visibleIds(personId, filter, this.clock.now(), MARK_ALL_LIMIT)).slice(0, MARK_ALL_LIMIT);
    const changed: NotificationRecord[] = [];
    for (let i = 0; i < ids.length; i += MARK_ALL_CHUNK) {
      const chunk = ids.slice(i, i + MARK_ALL_CHUNK);
      changed.push(...(await this.writes.changeMany((tx) => decideChunk(tx, chunk))));
      await yieldToOtherRequests();
    }
    return changed;
  }

  /** A reading-state decision for each id the person can see (others are left out), from two reads for all of them. */
  private async decideBatch(tx: NotificationTx, personId: string, ids: readonly string[], decide: ReadingDecision, now: Date): Promise<Decision[]> {
    return (await tx.viewsFor(ids, personId)).map(({ view, receipt }) => decide(view, receipt, personId, now));
  }
}
