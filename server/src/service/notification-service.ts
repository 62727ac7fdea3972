// The entrance to everything done to notifications. Resolvers, the CLI and background jobs call
// only this; each job lives in its own room under notifications/, and every change goes through
// the one write path there (notifications/write-path.ts): validate, decide (domain), store with
// its event in one transaction, publish the committed event.
import type { Clock } from "../domain/clock.ts";
import type { NotificationFilter } from "../domain/filter.ts";
import type { NotificationRecord, Receipt } from "../domain/notification.ts";
import type { Holder } from "../domain/server-instances.ts";
import type { EventBus } from "../events/bus.ts";
import { type HeraldObserver, noObserver } from "../events/observer.ts";
import type { DirectoryStore } from "../storage/persons/directory-store.ts";
import type { NotificationStore } from "../storage/notifications/notification-store.ts";
import type { CursorCodec } from "./cursor.ts";
import { CompanionRaising, type ObservationInput, type RaiseInput } from "./notifications/companion-raising.ts";
import { PersonMarks } from "./notifications/person-marks.ts";
import { type PageArgs, PersonReads } from "./notifications/person-reads.ts";
import { ProducerWrites } from "./notifications/producer-writes.ts";
import { NotificationWritePath } from "./notifications/write-path.ts";
import { ownOrNone } from "./plugin-scope.ts";
import type { PluginScope } from "./producer-rights.ts";

export { REMEMBER_FACT_ACTION, type RaiseInput } from "./notifications/companion-raising.ts";
export type { PageArgs } from "./notifications/person-reads.ts";

export class NotificationService {
  private readonly producers: ProducerWrites;
  private readonly companion: CompanionRaising;
  private readonly reads: PersonReads;
  private readonly marks: PersonMarks;
  /** The one write path (notifications/write-path.ts), shared with InvocationService. */
  readonly writes: NotificationWritePath;

  constructor(
    store: NotificationStore,
    directory: DirectoryStore,
    bus: EventBus,
    cursors: CursorCodec,
    clock: Clock,
    observer: HeraldObserver = noObserver,
    /** This process's instance: it holds the server-lifetime records it publishes (domain/server-instances.ts). */
    serverInstanceId: string | null = null,
  ) {
    const writes = (this.writes = new NotificationWritePath(store, bus, serverInstanceId));
    this.producers = new ProducerWrites(writes, directory, clock, observer);
    this.companion = new CompanionRaising(writes, this.producers, clock, observer);
    this.reads = new PersonReads(store, cursors, clock);
    this.marks = new PersonMarks(writes, clock);
  }

  // ---- producers (notifications/producer-writes.ts) ----------------------------------------
  publish = (input: unknown, scope: PluginScope = null): Promise<NotificationRecord> => this.producers.publish(input, scope);
  update = (id: string, patch: unknown, scope: PluginScope = null): Promise<NotificationRecord> => this.producers.update(id, patch, scope);
  updateByKey = (target: unknown, patch: unknown, scope: PluginScope = null): Promise<NotificationRecord> => this.producers.updateByKey(target, patch, scope);
  resolve = (id: string, resolution: unknown, operationId: string | null = null, scope: PluginScope = null): Promise<NotificationRecord> =>
    this.producers.resolve(id, resolution, operationId, scope);
  expire = (id: string, reason: unknown, operationId: string | null = null, scope: PluginScope = null): Promise<NotificationRecord> =>
    this.producers.expire(id, reason, operationId, scope);
  byIds = (ids: readonly string[]): Promise<NotificationRecord[]> => this.producers.byIds(ids);
  /** A producer reads back a record by id: a bound key only its own plugin's (an agent asks how its question was answered). */
  producerGet = async (id: string, scope: PluginScope): Promise<NotificationRecord | null> => ownOrNone(scope, (await this.producers.byIds([id]))[0] ?? null);
  completeRequest = (requestId: string, scope: PluginScope = null): Promise<number> => this.producers.completeRequest(requestId, scope);
  expireServerLifetime = (ids: string[], due: (holder: Holder, now: Date) => boolean): Promise<number> => this.producers.expireServerLifetime(ids, due);

  // ---- Herald's own notifications (notifications/companion-raising.ts) ---------------------
  raise = (input: RaiseInput): Promise<{ record: NotificationRecord; created: boolean }> => this.companion.raise(input);
  raiseMany = (inputs: readonly RaiseInput[]): Promise<number> => this.companion.raiseMany(inputs);
  publishObservation = (input: ObservationInput, scope: PluginScope = null): Promise<NotificationRecord> => this.companion.publishObservation(input, scope);

  // ---- a person's reads (notifications/person-reads.ts) ------------------------------------
  get = (personId: string, id: string): Promise<NotificationRecord | null> => this.reads.get(personId, id);
  receiptsOf = (notificationId: string): Promise<Map<string, Receipt>> => this.reads.receiptsOf(notificationId);
  page = (personId: string, filter: NotificationFilter | null | undefined, args: PageArgs) => this.reads.page(personId, filter, args);
  counts = (personId: string, filter: NotificationFilter | null | undefined) => this.reads.counts(personId, filter);
  total = (personId: string, filter: NotificationFilter | null | undefined): Promise<number> => this.reads.total(personId, filter);

  // ---- a person's marks, and those made for them (notifications/person-marks.ts) -----------
  dismiss = (personId: string, id: string, expectedRevision: number | null, reason: unknown): Promise<NotificationRecord> =>
    this.marks.dismiss(personId, id, expectedRevision, reason);
  markSeen = (personId: string, ids: readonly string[]): Promise<NotificationRecord[]> => this.marks.markSeen(personId, ids);
  markRead = (personId: string, ids: readonly string[]): Promise<NotificationRecord[]> => this.marks.markRead(personId, ids);
  markUnread = (personId: string, ids: readonly string[]): Promise<NotificationRecord[]> => this.marks.markUnread(personId, ids);
  markAllSeen = (personId: string, filter: NotificationFilter | null | undefined): Promise<number> => this.marks.markAllSeen(personId, filter);
  markAllRead = (personId: string, filter: NotificationFilter | null | undefined): Promise<number> => this.marks.markAllRead(personId, filter);
  dismissAllSeen = (personId: string, filter: NotificationFilter | null | undefined): Promise<number> => this.marks.dismissAllSeen(personId, filter);
  snooze = (personId: string, id: string, until: unknown): Promise<NotificationRecord> => this.marks.snooze(personId, id, until);
  unsnooze = (personId: string, id: string): Promise<NotificationRecord> => this.marks.unsnooze(personId, id);
  markDelivered = (personId: string, id: string): Promise<void> => this.marks.markDelivered(personId, id);
  wakeDueSnoozes = (limit?: number): Promise<number> => this.marks.wakeDueSnoozes(limit);

  // A person running a follow-up: service/invocation-service.ts.
}
