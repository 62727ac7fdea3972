// The one path for every change of a notification: validate, decide (domain), store with its
// event (storage, one transaction), then publish the committed events. Resolvers, the CLI and
// background jobs call only this.
import { createHash } from "node:crypto";
import type { Clock } from "../domain/clock.ts";
import { companionKeyOf, dedupKeyOf } from "../domain/companion.ts";
import { isTerminal } from "../domain/enums.ts";
import { NotFoundError, NotificationTransitionError, ValidationError } from "../domain/errors.ts";
import { type EffectiveFilter, effectiveFilter, type NotificationFilter, type Position, unreadOnly, unseenOnly } from "../domain/filter.ts";
import {
  type Decision,
  decideDelivered,
  decideDismiss,
  decideExpire,
  decidePublish,
  decideRead,
  decideResolve,
  decideSeen,
  decideSnooze,
  decideUnread,
  decideUnsnooze,
  decideUpdate,
  decideWake,
  viewOf,
} from "../domain/lifecycle.ts";
import { activeKeyOf, type NotificationRecord, type Receipt, type Target } from "../domain/notification.ts";
import { type Holder, holderAfter } from "../domain/server-instances.ts";
import {
  validateIds,
  validatePageSize,
  validatePatch,
  validatePatchTarget,
  validatePublish,
  validateReason,
  validateResolution,
  validateSnoozeUntil,
} from "../domain/validation.ts";
import type { EventBus } from "../events/bus.ts";
import type { CommittedEvent } from "../events/committed-event.ts";
import { type HeraldObserver, noObserver } from "../events/observer.ts";
import type { DirectoryStore } from "../storage/directory-store.ts";
import type { NotificationStore, NotificationTx } from "../storage/notification-store.ts";
import type { CursorCodec } from "./cursor.ts";
import { mustHaveEngagement, mustHavePerson } from "./existence.ts";
import type { Raise } from "./listener-registry.ts";
import { assertKeyFree, assertOwnPlugin, ownOrNone } from "./plugin-scope.ts";
import type { PluginScope } from "./producer-rights.ts";

/** A notification Herald raises itself, on the scanner's or an event listener's behalf. */
export interface RaiseInput extends Raise {
  triggerType: "TIME_BASED" | "EVENT_BASED";
  /** What the ref is unique within (domain/companion.ts): an event type, or a scan. */
  triggerSource: string;
  /** Which part of Herald raised it (source.subsystem; source.plugin is "herald"). */
  subsystem: string;
}

/** The RUN_ACTION target Herald handles itself: an observation's "Remember this". */
export const REMEMBER_FACT_ACTION = "herald.rememberFact";

const observationSchema = {
  maxFactLength: 2_000,
};

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

const MARK_ALL_LIMIT = 10_000;
/** Records marked per transaction by markAllSeen: small enough that other writers wait at most one chunk. */
const MARK_ALL_CHUNK = 100;

export class NotificationService {
  constructor(
    private readonly store: NotificationStore,
    private readonly directory: DirectoryStore,
    private readonly bus: EventBus,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly observer: HeraldObserver = noObserver,
    /** This process's instance: it holds the server-lifetime records it publishes (domain/server-instances.ts). */
    private readonly serverInstanceId: string | null = null,
  ) {}

  // ---- producers -------------------------------------------------------------------------

  /** Keyed upsert: a new occurrence, or a new revision of the active one with the same key. */
  async publish(input: unknown, scope: PluginScope = null): Promise<NotificationRecord> {
    const now = this.clock.now();
    const valid = validatePublish(input, now);
    assertOwnPlugin(scope, valid.content.source.plugin, "source.plugin");
    const target = await this.resolveTarget(valid.target);
    if (valid.content.engagementId) await mustHaveEngagement(this.directory, valid.content.engagementId, "engagementId");
    const record = await this.changeAsProducer(async (tx) => {
      const existing = await tx.findActive(target, valid.key);
      assertKeyFree(scope, existing);
      return decidePublish(existing, target, valid.key, valid.content, now);
    });
    this.observer.published(record.source.plugin);
    return record;
  }

  async update(id: string, patch: unknown, scope: PluginScope = null): Promise<NotificationRecord> {
    return this.patch((tx) => tx.findById(id), patch, scope);
  }

  /**
   * Patches the active occurrence of a key, so a heartbeat sends only what changed. An unknown
   * target or key, or one whose occurrence has ended, is a NotFoundError.
   */
  async updateByKey(target: unknown, patch: unknown, scope: PluginScope = null): Promise<NotificationRecord> {
    const valid = validatePatchTarget(target);
    return this.patch((tx) => tx.findActive(valid.target, valid.key), patch, scope);
  }

  private async patch(find: (tx: NotificationTx) => Promise<NotificationRecord | null>, patch: unknown, scope: PluginScope): Promise<NotificationRecord> {
    const now = this.clock.now();
    const engagementId = (patch as { engagementId?: string | null } | null)?.engagementId;
    if (engagementId) await mustHaveEngagement(this.directory, engagementId, "patch.engagementId");
    return this.changeAsProducer(async (tx) => {
      const current = ownOrNone(scope, await find(tx));
      if (!current) throw new NotFoundError();
      const content = validatePatch(current, current, patch, now);
      assertOwnPlugin(scope, content.source.plugin, "patch.source.plugin");
      return decideUpdate(current, content, now);
    });
  }

  async resolve(id: string, resolution: unknown, operationId: string | null = null, scope: PluginScope = null): Promise<NotificationRecord> {
    const now = this.clock.now();
    const valid = validateResolution(resolution);
    return this.change(async (tx) => decideResolve(await this.mustFind(tx, id, scope), valid, operationId, now));
  }

  async expire(id: string, reason: unknown, operationId: string | null = null, scope: PluginScope = null): Promise<NotificationRecord> {
    const now = this.clock.now();
    const valid = validateReason(reason);
    return this.change(async (tx) => decideExpire(await this.mustFind(tx, id, scope), valid, operationId, now));
  }

  /**
   * Raises a notification for a trigger unless that trigger already fired for the person (in
   * any state since): the store's unique dedupKey decides, so parallel calls create one.
   */
  async raise(input: RaiseInput): Promise<{ record: NotificationRecord; created: boolean }> {
    const now = this.clock.now();
    const key = companionKeyOf(input.triggerSource, input.triggerRef);
    const valid = validatePublish(raisedPublish(input, key), now);
    const dedupKey = dedupKeyOf(input.personId, input.triggerSource, input.triggerRef);
    let created = false;
    const record = await this.change(async (tx) => {
      const fired = await tx.findByDedupKey(dedupKey);
      if (fired) {
        created = false;
        return { kind: "none", current: fired };
      }
      const decision = decidePublish(await tx.findActive(valid.target, key), valid.target, key, valid.content, now);
      created = decision.kind === "create";
      return decision.kind === "create" ? { ...decision, dedupKey } : decision;
    });
    if (created) this.observer.published(record.source.plugin);
    return { record, created };
  }

  /**
   * raise() for many triggers at once (the scanner's batches): one transaction writes the new
   * rows and their events with a statement each, instead of a transaction of 8-9 statements per
   * notification; the events are published after it commits. Triggers that fired before (or
   * twice in `inputs`) are skipped. The unique dedupKey still decides races: a batch that
   * collides with another instance's write is retried whole and then skips what the other wrote.
   * Returns how many notifications were created.
   */
  async raiseMany(inputs: readonly RaiseInput[]): Promise<number> {
    const now = this.clock.now();
    const byDedupKey = new Map<string, { input: RaiseInput; target: Target; key: string; content: ReturnType<typeof validatePublish>["content"] }>();
    for (const input of inputs) {
      const dedupKey = dedupKeyOf(input.personId, input.triggerSource, input.triggerRef);
      if (byDedupKey.has(dedupKey)) continue;
      const key = companionKeyOf(input.triggerSource, input.triggerRef);
      const valid = validatePublish(raisedPublish(input, key), now);
      byDedupKey.set(dedupKey, { input, target: valid.target, key, content: valid.content });
    }
    if (byDedupKey.size === 0) return 0;
    // A producer may hold an active record under a companion key (unlikely, but allowed): those
    // are decided one by one by raise(), which revises it like a publish would.
    const oneByOne: RaiseInput[] = [];
    const applied = await this.store.transaction(async (tx) => {
      oneByOne.length = 0;
      await tx.claimWriter();
      const fired = await tx.firedDedupKeys([...byDedupKey.keys()]);
      const fresh = [...byDedupKey].filter(([dedupKey]) => !fired.has(dedupKey));
      const active = await tx.activeKeysAmong(fresh.map(([, r]) => activeKeyOf(r.target, r.key)));
      const creates = [];
      for (const [dedupKey, r] of fresh) {
        if (active.has(activeKeyOf(r.target, r.key))) oneByOne.push(r.input);
        else creates.push({ ...(decidePublish(null, r.target, r.key, r.content, now) as CreateDecision), dedupKey });
      }
      return tx.createMany(creates);
    });
    for (const { record, event } of applied) {
      if (event) this.publishCommitted(event);
      this.observer.published(record.source.plugin);
    }
    let created = applied.length;
    for (const input of oneByOne) if ((await this.raise(input)).created) created++;
    return created;
  }

  /**
   * An OBSERVATION: Herald noticed something and offers to remember it. "Remember this" stores
   * the fact and resolves the notification (Herald does it, no producer needs to be connected);
   * "Not now" dismisses it. Publishing the same fact again updates the open offer in place.
   */
  async publishObservation(input: {
    personId: string;
    fact: unknown;
    title?: string | null;
    body?: string | null;
    key?: string | null;
    engagementId?: string | null;
    source: { plugin: string; subsystem?: string | null };
  }, scope: PluginScope = null): Promise<NotificationRecord> {
    const fact = typeof input.fact === "string" ? input.fact.trim() : "";
    if (fact === "" || fact.length > observationSchema.maxFactLength) {
      throw new ValidationError("fact", `fact: must be 1-${observationSchema.maxFactLength} characters`);
    }
    const key = input.key ?? `observation:${createHash("sha256").update(fact).digest("hex").slice(0, 24)}`;
    return this.publish({
      scope: "PERSON",
      personId: input.personId,
      key,
      title: input.title ?? "Shall I remember this?",
      body: input.body ?? `I noticed: “${fact}”`,
      source: input.source,
      engagementId: input.engagementId,
      trigger: { type: "OBSERVATION", ref: key },
      actions: [
        { kind: "RUN_ACTION", id: "remember", label: "Remember this", actionId: REMEMBER_FACT_ACTION, fixedParams: { fact } },
        { kind: "DISMISS", id: "not-now", label: "Not now" },
      ],
    }, scope);
  }

  /** Records by id, for a producer replaying an earlier result (missing ones are left out). */
  async byIds(ids: readonly string[]): Promise<NotificationRecord[]> {
    const records = await Promise.all(ids.map((id) => this.store.findById(id)));
    return records.filter((r): r is NotificationRecord => r !== null);
  }

  /** Expires the active UNTIL_REQUEST_COMPLETE records of a request; returns how many. */
  async completeRequest(requestId: string, scope: PluginScope = null): Promise<number> {
    if (requestId.trim() === "") throw new ValidationError("requestId", "requestId: must not be empty");
    const ids = await this.store.activeIdsWithRetention("UNTIL_REQUEST_COMPLETE", requestId, scope);
    return this.expireAll(ids, "request_complete");
  }

  /**
   * Expires server-lifetime records whose holder has ended, as `due` decides it again inside the
   * transaction (a revision on another instance may have moved one meanwhile); returns how many.
   * Chunked like markAllSeen: a clean stop must end thousands within its bound. Listing the
   * candidates is service/server-instance-service.ts's.
   */
  async expireServerLifetime(ids: string[], due: (holder: Holder, now: Date) => boolean): Promise<number> {
    let expired = 0;
    for (let i = 0; i < ids.length; i += MARK_ALL_CHUNK) {
      const chunk = ids.slice(i, i + MARK_ALL_CHUNK);
      const now = this.clock.now();
      const records = await this.changeMany(async (tx) => {
        const decisions: Decision[] = [];
        for (const record of await tx.findManyByIds(chunk)) {
          if (!isTerminal(record.status) && due(await tx.holderOf(record.id), now)) decisions.push(decideExpire(record, "server_restart", null, now));
        }
        return decisions;
      });
      expired += records.filter((r) => r.status === "EXPIRED").length;
      await yieldToOtherRequests();
    }
    return expired;
  }

  private async expireAll(ids: string[], reason: string): Promise<number> {
    const now = this.clock.now();
    let expired = 0;
    for (const [i, id] of ids.entries()) {
      if (i > 0 && i % YIELD_EVERY === 0) await yieldToOtherRequests();
      const record = await this.change(async (tx) => decideExpire(await this.mustFind(tx, id), reason, null, now)).catch(
        ignoreEndedMeanwhile,
      );
      if (record?.status === "EXPIRED") expired++;
    }
    return expired;
  }

  // ---- persons ---------------------------------------------------------------------------

  async get(personId: string, id: string): Promise<NotificationRecord | null> {
    const record = await this.store.findById(id);
    if (!record || !visibleTo(personId, record)) return null;
    return record.scope === "APPLICATION" ? viewOf(record, await this.store.findReceipt(id, personId)) : record;
  }

  /** Every person's own state of a shared record, for streams that present its shared events. */
  receiptsOf(notificationId: string): Promise<Map<string, Receipt>> {
    return this.store.receiptsOf(notificationId);
  }

  async page(personId: string, filter: NotificationFilter | null | undefined, args: PageArgs) {
    const first = args.first === undefined || args.first === null ? null : validatePageSize(args.first, "first");
    const last = args.last === undefined || args.last === null ? null : validatePageSize(args.last, "last");
    if (first !== null && last !== null) throw new ValidationError("last", "last: use either first or last, not both");
    return {
      after: args.after ? this.cursors.decode(personId, args.after, "after") : null,
      before: args.before ? this.cursors.decode(personId, args.before, "before") : null,
      first,
      last,
      fetch: (page: { after: Position | null; before: Position | null; limit: number; inverted: boolean }) =>
        this.store.page(personId, effectiveFilter(filter), page, this.clock.now()),
      cursorOf: (record: NotificationRecord) => this.cursors.encode(personId, record),
    };
  }

  async counts(personId: string, filter: NotificationFilter | null | undefined) {
    const f = effectiveFilter(filter);
    const now = this.clock.now();
    const [total, unseen, unread] = await Promise.all([
      this.store.count(personId, f, now),
      this.store.count(personId, unseenOnly(f), now),
      this.store.count(personId, unreadOnly(f), now),
    ]);
    return { total, unseen, unread };
  }

  /** The number of records a filtered list holds (a connection's totalCount). */
  total(personId: string, filter: NotificationFilter | null | undefined): Promise<number> {
    return this.store.count(personId, effectiveFilter(filter), this.clock.now());
  }

  async dismiss(personId: string, id: string, expectedRevision: number | null, reason: unknown): Promise<NotificationRecord> {
    const now = this.clock.now();
    const validReason = validateReason(reason);
    return this.changeAsPerson(personId, id, (view, receipt) =>
      decideDismiss(view, receipt, personId, expectedRevision, validReason, now),
    );
  }

  /** Marks the given notifications seen; ids the person cannot see are ignored. */
  markSeen(personId: string, ids: readonly string[]): Promise<NotificationRecord[]> {
    return this.markEach(personId, validateIds(ids), decideSeen);
  }

  /** Marks the given notifications read (and so seen); ids the person cannot see are ignored. */
  markRead(personId: string, ids: readonly string[]): Promise<NotificationRecord[]> {
    return this.markEach(personId, validateIds(ids), decideRead);
  }

  /** Marks the given notifications unread; seen stays. Ids the person cannot see are ignored. */
  markUnread(personId: string, ids: readonly string[]): Promise<NotificationRecord[]> {
    return this.markEach(personId, validateIds(ids), decideUnread);
  }

  /** Beyond the per-call id limit of markSeen: the ids come from the store, not the caller. */
  markAllSeen(personId: string, filter: NotificationFilter | null | undefined): Promise<number> {
    return this.markAll(personId, unseenOnly(effectiveFilter(filter)), decideSeen, (r) => r.status === "SEEN");
  }

  /** Marks read what the filtered list holds unread; how many changed. */
  markAllRead(personId: string, filter: NotificationFilter | null | undefined): Promise<number> {
    return this.markAll(personId, unreadOnly(effectiveFilter(filter)), decideRead, (r) => r.readAt !== null);
  }

  private async markAll(personId: string, filter: EffectiveFilter, decide: ReadingDecision, changedTo: (r: NotificationRecord) => boolean): Promise<number> {
    const now = this.clock.now();
    const ids = (await this.store.visibleIds(personId, filter, now, MARK_ALL_LIMIT)).slice(0, MARK_ALL_LIMIT);
    let changed = 0;
    // One transaction per chunk, not per call: thousands of rows in one would hold the write lock
    // (SQLite's, or PostgreSQL's event counter row) for seconds while every other writer waits.
    for (let i = 0; i < ids.length; i += MARK_ALL_CHUNK) {
      const chunk = ids.slice(i, i + MARK_ALL_CHUNK);
      const records = await this.changeMany((tx) => this.decideBatch(tx, personId, chunk, decide, now));
      changed += records.filter(changedTo).length;
      await yieldToOtherRequests();
    }
    return changed;
  }

  /**
   * Dismisses what the person has seen at its current revision ("Clear all"); a revision that
   * arrived after they saw it, and anything they cannot dismiss, stays. APPLICATION records are
   * dismissed for this person only (their receipt), as dismissNotification does. Bounded chunks
   * as in markAllSeen; each record is checked again inside its chunk's transaction, so a
   * revision published after the ids were listed is not dismissed.
   */
  async dismissAllSeen(personId: string, filter: NotificationFilter | null | undefined): Promise<number> {
    const now = this.clock.now();
    const seenOnly = { ...effectiveFilter(filter), statuses: effectiveFilter(filter).statuses.filter((s) => s === "SEEN") };
    const ids = (await this.store.visibleIds(personId, seenOnly, now, MARK_ALL_LIMIT)).slice(0, MARK_ALL_LIMIT);
    let changed = 0;
    for (let i = 0; i < ids.length; i += MARK_ALL_CHUNK) {
      const chunk = ids.slice(i, i + MARK_ALL_CHUNK);
      const records = await this.changeMany(async (tx) => {
        const decisions: Decision[] = [];
        for (const id of chunk) {
          const decision = await this.decideAsPerson(tx, personId, id, (view, receipt) =>
            view.status === "SEEN" ? decideDismiss(view, receipt, personId, view.revision, "cleared", now) : { kind: "none", current: view },
          ).catch(ignoreEndedMeanwhile);
          if (decision && decision.kind !== "none") decisions.push(decision);
        }
        return decisions;
      });
      changed += records.filter((r) => r.status === "DISMISSED").length;
      await yieldToOtherRequests();
    }
    return changed;
  }

  /**
   * One transaction for the whole call, a handful of statements whatever the number of ids (see
   * NotificationTx.applyBatch); results follow the order of `ids`.
   */
  private async markEach(personId: string, ids: readonly string[], decide: ReadingDecision): Promise<NotificationRecord[]> {
    const now = this.clock.now();
    return this.changeMany((tx) => this.decideBatch(tx, personId, ids, decide, now));
  }

  /** A reading-state decision for each id the person can see (others are left out), from two reads for all of them. */
  private async decideBatch(tx: NotificationTx, personId: string, ids: readonly string[], decide: ReadingDecision, now: Date): Promise<Decision[]> {
    const byId = new Map((await tx.findManyByIds(ids)).map((r) => [r.id, r]));
    const visible = ids.map((id) => byId.get(id)).filter((r): r is NotificationRecord => r !== undefined && visibleTo(personId, r));
    const shared = visible.filter((r) => r.scope === "APPLICATION").map((r) => r.id);
    const receipts = await tx.findReceipts(shared, personId);
    return visible.map((record) => {
      const receipt = record.scope === "APPLICATION" ? (receipts.get(record.id) ?? null) : null;
      return decide(viewOf(record, receipt), receipt, personId, now);
    });
  }

  async snooze(personId: string, id: string, until: unknown): Promise<NotificationRecord> {
    const now = this.clock.now();
    const validUntil = validateSnoozeUntil(until, now);
    return this.changeAsPerson(personId, id, (view, receipt) => decideSnooze(view, receipt, personId, validUntil, now));
  }

  async unsnooze(personId: string, id: string): Promise<NotificationRecord> {
    const now = this.clock.now();
    return this.changeAsPerson(personId, id, (view, receipt) => decideUnsnooze(view, receipt, personId, now));
  }

  // ---- delivery and background work ------------------------------------------------------

  /** A PERSON/SESSION notification reached a connected client of its reader. */
  async markDelivered(personId: string, id: string): Promise<void> {
    const now = this.clock.now();
    await this.changeAsPerson(personId, id, (view) => decideDelivered(view, now)).catch(ignoreNotFound);
  }

  /** Ends the snoozes whose time has passed; returns how many woke. */
  async wakeDueSnoozes(limit = 500): Promise<number> {
    const now = this.clock.now();
    let woken = 0;
    for (const [i, due] of (await this.store.dueSnoozes(now, limit)).entries()) {
      if (i > 0 && i % YIELD_EVERY === 0) await yieldToOtherRequests();
      const record = await this.changeAsPerson(due.personId, due.notificationId, (view, receipt) =>
        decideWake(view, receipt, due.personId, now),
      ).catch(ignoreEndedMeanwhile);
      if (record && record.snoozedUntil === null) woken++;
    }
    return woken;
  }

  // A person running a follow-up: service/invocation-service.ts.

  // ---- the one write path ----------------------------------------------------------------

  private async change(decide: (tx: NotificationTx) => Promise<Decision>, asProducer = false): Promise<NotificationRecord> {
    const applied = await this.store.transaction(async (tx) => {
      const decision = await decide(tx);
      return tx.apply(decision, asProducer ? holderAfter(decision, this.serverInstanceId) : undefined);
    });
    if (applied.event) this.publishCommitted(applied.event);
    return applied.record;
  }

  /** A producer's publish or revision: it also decides which instance holds a server-lifetime record. */
  private changeAsProducer(decide: (tx: NotificationTx) => Promise<Decision>): Promise<NotificationRecord> {
    return this.change(decide, true);
  }

  /** Several decisions in one transaction; their events are published after it commits. */
  private async changeMany(decideAll: (tx: NotificationTx) => Promise<Decision[]>): Promise<NotificationRecord[]> {
    const applied = await this.store.transaction(async (tx) => tx.applyBatch(await decideAll(tx)));
    for (const { event } of applied) if (event) this.publishCommitted(event);
    return applied.map((a) => a.record);
  }

  private changeAsPerson(
    personId: string,
    id: string,
    decide: (view: NotificationRecord, receipt: Receipt | null) => Decision,
  ): Promise<NotificationRecord> {
    return this.change((tx) => this.decideAsPerson(tx, personId, id, decide));
  }

  /** Decides a change of a person's view of a record; NotFoundError when they cannot see it. */
  private async decideAsPerson(
    tx: NotificationTx,
    personId: string,
    id: string,
    decide: (view: NotificationRecord, receipt: Receipt | null) => Decision,
  ): Promise<Decision> {
    const record = await tx.findById(id);
    if (!record || !visibleTo(personId, record)) throw new NotFoundError();
    const receipt = record.scope === "APPLICATION" ? await tx.findReceipt(id, personId) : null;
    return decide(viewOf(record, receipt), receipt);
  }

  /** Only after commit: a subscriber must never see a change that could still roll back. */
  private publishCommitted(event: CommittedEvent) {
    // Wall-clock, not the injectable clock: this measures fan-out lag, it decides nothing.
    this.bus.publish({ kind: "event", event: { ...event, committedAt: Date.now() } });
  }

  private async mustFind(tx: NotificationTx, id: string, scope: PluginScope = null): Promise<NotificationRecord> {
    const record = ownOrNone(scope, await tx.findById(id));
    if (!record) throw new NotFoundError();
    return record;
  }

  /** PERSON needs an existing person; SESSION an existing session, whose owner becomes the reader. */
  private async resolveTarget(target: Target): Promise<Target> {
    if (target.scope === "PERSON") await mustHavePerson(this.directory, target.personId!, "personId");
    if (target.scope === "SESSION") {
      const session = await this.directory.findSession(target.sessionId!);
      if (!session) throw new ValidationError("sessionId", "sessionId: no such session");
      return { ...target, personId: session.ownerPersonId };
    }
    return target;
  }
}

/** The publish input of a notification Herald raises itself. */
function raisedPublish(input: RaiseInput, key: string) {
  return {
    scope: "PERSON",
    personId: input.personId,
    key,
    title: input.title,
    body: input.body,
    severity: input.severity ?? "INFO",
    source: { plugin: "herald", subsystem: input.subsystem },
    trigger: { type: input.triggerType, ref: input.triggerRef },
    engagementId: input.engagementId,
  };
}

type CreateDecision = Extract<Decision, { kind: "create" }>;

/** decideSeen, decideRead, decideUnread: one person's reading state of one record. */
type ReadingDecision = (view: NotificationRecord, receipt: Receipt | null, personId: string, now: Date) => Decision;

/**
 * SQLite's driver is synchronous, so a loop of transactions can run on promise callbacks alone and
 * never let the event loop read another request; a macrotask turn between chunks lets it in.
 */
function yieldToOtherRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Per-record loops (expiry, wake-ups, seen marks) give other requests a turn this often. */
const YIELD_EVERY = 50;

/** Ids the person cannot see (or that are gone) are skipped, not errors, in batch and delivery marks. */
function ignoreNotFound(error: unknown): null {
  if (error instanceof NotFoundError) return null;
  throw error;
}

/**
 * A sweep over many records meets some that another writer ended (or removed) since it listed
 * them; those are skipped. Anything else is a real failure and propagates.
 */
function ignoreEndedMeanwhile(error: unknown): null {
  if (error instanceof NotFoundError || error instanceof NotificationTransitionError) return null;
  throw error;
}

/** PERSON and SESSION records have one reader; APPLICATION ones are everyone's. */
export function visibleTo(personId: string, record: NotificationRecord): boolean {
  return record.scope === "APPLICATION" || record.personId === personId;
}
