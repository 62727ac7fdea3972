// The one path for every change of a notification or of an action invocation: decide (domain)
// inside a unit of work, store the change with its event (storage, NotificationTx), and publish
// the events the unit appended only after it committed (write()). Every room of the notification
// service, the companion's batches and InvocationService write through this.
import { NotFoundError, NotificationTransitionError } from "../../domain/errors.ts";
import type { Decision } from "../../domain/lifecycle.ts";
import type { NotificationRecord, Receipt } from "../../domain/notification.ts";
import { holderAfter } from "../../domain/server-instances.ts";
import type { EventBus } from "../../events/bus.ts";
import type { CommittedEvent } from "../../events/committed-event.ts";
import type { NotificationStore } from "../../storage/notifications/notification-store.ts";
import type { NotificationTx } from "../../storage/notifications/notification-tx.ts";
import { ownOrNone } from "../plugin-scope.ts";
import type { PluginScope } from "../producer-rights.ts";

/** A change decided from a person's view of a record and their receipt of it (shared records). */
export type PersonDecision = (view: NotificationRecord, receipt: Receipt | null) => Decision;

export class NotificationWritePath {
  constructor(
    readonly store: NotificationStore,
    private readonly bus: EventBus,
    /** This process's instance: it holds the server-lifetime records it publishes (domain/server-instances.ts). */
    private readonly serverInstanceId: string | null = null,
  ) {}

  /**
   * The one function every write goes through: runs `work` in a unit of work and, once it
   * committed, publishes every event the unit appended, in order. `shared`: the unit is one of
   * the store's transactions, for work that also writes through another store (tx.connection,
   * action invocations); otherwise, on SQLite, the faster unit of NotificationStore.transaction.
   */
  async write<T>(work: (tx: NotificationTx) => Promise<T>, { shared = false }: { shared?: boolean } = {}): Promise<T> {
    let last: NotificationTx | null = null;
    const unit = (tx: NotificationTx) => {
      last = tx;
      return work(tx);
    };
    const result = await (shared ? this.store.sharedTransaction(unit) : this.store.transaction(unit));
    // The unit that committed is the last one run (a retried unit starts with a new tx); on SQLite
    // its writes ran at commit, so what they queued is known only now.
    const committed = last as NotificationTx | null;
    for (const event of committed?.appended ?? []) this.publishCommitted(event, committed!.queuedDeliveries);
    return result;
  }

  /** One decision: its record as the deciding party sees it (a person's view of a shared record). */
  change(decide: (tx: NotificationTx) => Promise<Decision>, asProducer = false): Promise<NotificationRecord> {
    return this.write(async (tx) => {
      const decision = await decide(tx);
      return (await tx.apply(decision, asProducer ? holderAfter(decision, this.serverInstanceId) : undefined)).record;
    });
  }

  /** A producer's publish or revision: it also decides which instance holds a server-lifetime record. */
  changeAsProducer(decide: (tx: NotificationTx) => Promise<Decision>): Promise<NotificationRecord> {
    return this.change(decide, true);
  }

  /** Several decisions in one transaction; their events are published after it commits. */
  changeMany(decideAll: (tx: NotificationTx) => Promise<Decision[]>): Promise<NotificationRecord[]> {
    return this.write(async (tx) => (await tx.applyBatch(await decideAll(tx))).map((a) => a.record));
  }

  changeAsPerson(personId: string, id: string, decide: PersonDecision): Promise<NotificationRecord> {
    return this.change((tx) => this.decideAsPerson(tx, personId, id, decide));
  }

  /** Decides a change of a person's view of a record; NotFoundError when they cannot see it. */
  async decideAsPerson(tx: NotificationTx, personId: string, id: string, decide: PersonDecision): Promise<Decision> {
    const found = await tx.viewFor(id, personId);
    if (!found) throw new NotFoundError();
    return decide(found.view, found.receipt);
  }

  /** Only after commit: a subscriber must never see a change that could still roll back. */
  publishCommitted(event: CommittedEvent, queuedDeliveries: boolean): void {
    // Wall-clock, not the injectable clock: this measures fan-out lag, it decides nothing.
    this.bus.publish({ kind: "event", event: { ...event, committedAt: Date.now() }, queuedDeliveries });
  }

  async mustFind(tx: NotificationTx, id: string, scope: PluginScope = null): Promise<NotificationRecord> {
    const record = ownOrNone(scope, await tx.findById(id));
    if (!record) throw new NotFoundError();
    return record;
  }
}

/**
 * SQLite's driver is synchronous, so a loop of transactions can run on promise callbacks alone and
 * never let the event loop read another request; a macrotask turn between chunks lets it in.
 */
export function yieldToOtherRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Per-record loops (expiry, wake-ups, seen marks) give other requests a turn this often. */
export const YIELD_EVERY = 50;

/** Ids the person cannot see (or that are gone) are skipped, not errors, in batch and delivery marks. */
export function ignoreNotFound(error: unknown): null {
  if (error instanceof NotFoundError) return null;
  throw error;
}

/**
 * A sweep over many records meets some that another writer ended (or removed) since it listed
 * them; those are skipped. Anything else is a real failure and propagates.
 */
export function ignoreEndedMeanwhile(error: unknown): null {
  if (error instanceof NotFoundError || error instanceof NotificationTransitionError) return null;
  throw error;
}
