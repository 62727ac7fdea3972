// What subscriptions read: a person's event stream and the producers' action invocations.
// Protocol: docs/event-stream.md.
import type { Clock } from "../domain/clock.ts";
import type { InvocationRecord } from "../domain/invocation.ts";
import type { Preferences } from "../domain/preferences.ts";
import { map, pipe } from "graphql-yoga";
import type { EventFeed } from "./event-feed.ts";
import type { EventLogReader } from "../events/event-log-reader.ts";
import type { HeraldObserver } from "../events/observer.ts";
import { type InvocationReader, invocationStream } from "./invocation-stream.ts";
import { listenerStream } from "./listener-stream.ts";
import { PersonStream, type PersonStreamDeps, type StreamItem, type StreamRegistration } from "./person-stream.ts";
import { readsFrom } from "./quiet-hold.ts";
import type { Logger } from "../logger.ts";
import type { AuthService } from "../service/auth-service.ts";
import type { Caller } from "../service/caller.ts";
import type { CursorCodec } from "../service/cursor.ts";
import type { DirectoryService } from "../service/directory-service.ts";
import type { NotificationService } from "../service/notification-service.ts";
import { type StreamEnded, StreamRegistry } from "./stream-registry.ts";

export interface RealtimeOptions {
  /** Live events a connection may have waiting before it is closed as too slow. */
  maxQueuedEvents: number;
  /** Open streams one credential may hold on this instance. */
  maxStreamsPerCredential: number;
  /** While a stream holds, how often it checks whether quiet hours have ended. */
  quietHoursCheckMs: number;
  /** How often an invocation stream asks storage for anything newer (a lost last message's safety net). */
  pollMs: number;
  clock: Clock;
  observer?: HeraldObserver;
}

/** Delivery marks remembered per instance; an older one marked again is a no-op write. */
const DELIVERED_MEMORY = 10_000;

export class RealtimeService {
  private readonly streams: StreamRegistry;
  /** `personId:notificationId:revision` marks this instance has started: one write per person and event, not per stream. */
  private readonly delivered = new Set<string>();
  // Delivery marks being written: a stop waits for them, so none is cut off by the store closing.
  private readonly marking = new Set<Promise<void>>();
  private readonly stopListening: () => void;
  /** What every person stream of this instance reads: one object for all of them, not one per stream. */
  private readonly streamDeps: PersonStreamDeps;
  /** Open single-connection streams on this instance (herald_open_streams counts them too). */
  heldConnections = 0;

  constructor(
    private readonly feed: EventFeed,
    private readonly log: EventLogReader,
    private readonly invocations: InvocationReader,
    private readonly notifications: NotificationService,
    private readonly directory: DirectoryService,
    private readonly cursors: CursorCodec,
    private readonly auth: AuthService,
    private readonly logger: Logger,
    private readonly options: RealtimeOptions,
  ) {
    this.streams = new StreamRegistry(options.maxStreamsPerCredential);
    this.stopListening = feed.onRevoked((ids) => this.endStreamsOf(ids));
    this.streamDeps = {
      feed,
      log,
      preferences: (id) => directory.preferences(id),
      clock: options.clock,
      holdCheckMs: options.quietHoursCheckMs,
      receiptsOf: (notificationId) => notifications.receiptsOf(notificationId),
      markDelivered: (id, notification) => this.markDeliveredOnce(id, notification.id, notification.revision),
      maxQueuedEvents: options.maxQueuedEvents,
      observer: options.observer,
    };
  }

  /** Open streams of a credential on this instance (the HTTP layer refuses past the cap early). */
  openStreams(credentialId: string): number {
    return this.streams.count(credentialId);
  }

  /** Throws TooManyStreamsError when the credential holds as many streams as it may. */
  assertStreamRoom(credentialId: string): void {
    this.streams.assertRoom(credentialId);
  }

  /**
   * Counts an opened single-connection stream against its credential's cap (TooManyStreamsError
   * past it) until it is released; a revocation calls `close`. Its operations count on their own.
   */
  holdConnection(credentialId: string, close: () => void): StreamRegistration {
    const registration = this.streams.hold(credentialId, close);
    this.heldConnections++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.heldConnections--;
        registration.release();
      },
    };
  }

  /** The lowest sequence number a stream resuming from this cursor reads (a ValidationError on `after` if it is not one). */
  afterSeq(personId: string, after: string): number {
    return readsFrom(this.cursors.decodeSeq(personId, after, "after"));
  }

  /** Validates the cursor first, so a forged one fails the subscription instead of the stream. */
  notificationEvents(caller: Extract<Caller, { kind: "person" }>, after: string | null | undefined): PersonStream<StreamEnded> {
    const { personId } = caller;
    const position = after ? this.cursors.decodeSeq(personId, after, "after") : null;
    this.streams.assertRoom(caller.credentialId);
    const stream = new PersonStream<StreamEnded>(this.streamDeps, personId, position);
    this.streams.track(caller.credentialId, stream);
    return stream;
  }

  /** Ends this instance's streams of revoked credentials (heard on the bus, or found by the sweep). */
  endStreamsOf(credentialIds: readonly string[]): number {
    const ended = this.streams.revoke(credentialIds);
    if (ended > 0) this.logger.info({ streams: ended }, "ended the streams of a revoked credential");
    return ended;
  }

  /** The safety net for a lost revocation message: asks the store about every credential holding a stream here. */
  async endStreamsOfRevoked(): Promise<number> {
    const open = this.streams.credentialIds();
    if (open.length === 0) return 0;
    return this.endStreamsOf(await this.auth.revokedAmong(open));
  }

  /** Stops listening for revocations; resolves once the delivery marks in flight are written. */
  async stop(): Promise<void> {
    this.stopListening();
    await Promise.allSettled([...this.marking]);
  }

  private markDeliveredOnce(personId: string, notificationId: string, revision: number) {
    // A PERSON or SESSION record has one reader; a shared one is delivered to each person apart.
    const key = `${personId}:${notificationId}:${revision}`;
    if (this.delivered.has(key)) return;
    this.delivered.add(key);
    // A Set iterates in insertion order: the oldest mark is forgotten first.
    if (this.delivered.size > DELIVERED_MEMORY) this.delivered.delete(this.delivered.values().next().value!);
    const marking = this.notifications.markDelivered(personId, notificationId).then(
      () => undefined,
      (error: Error) => {
        this.delivered.delete(key); // the next stream (or replay) to carry it tries again
        this.logger.warn({ err: error.message }, "could not mark a notification delivered");
      },
    );
    this.marking.add(marking);
    void marking.finally(() => this.marking.delete(marking));
  }

  /**
   * The person's position in the event stream now. A client that reads it before a snapshot
   * and then subscribes with it as `after` misses nothing committed in between.
   */
  async headCursor(personId: string): Promise<string> {
    return this.cursors.encodeSeq(personId, await this.log.maxSeq());
  }

  /** The cursor of a stream item: where its client stands after it. */
  cursorFor(personId: string, item: Pick<StreamItem, "seq" | "position">): string {
    return item.position ? this.cursors.encodeSeq(personId, item.position.seq, item.position.hold) : this.cursors.encodeSeq(personId, item.seq);
  }

  /** A producer's action invocations after `after` (from storage), then live ones; see invocation-stream.ts. */
  invocationEvents(plugin: string | null, after: number | null): AsyncIterableIterator<InvocationRecord> {
    const deps = { feed: this.feed, store: this.invocations, maxQueued: this.options.maxQueuedEvents, pollMs: this.options.pollMs };
    return invocationStream(deps, plugin, after);
  }

  /** A producer's stream (actionInvocations), counted and ended with its credential's other streams. */
  producerStream<T>(caller: Caller, open: () => AsyncIterableIterator<T>): AsyncIterableIterator<T | StreamEnded> {
    this.streams.assertRoom(caller.credentialId);
    return this.streams.bind(caller.credentialId, open());
  }

  /**
   * The person's preferences now, then again after every change (from any instance, by the
   * person or a producer), so every open tab and device shows the same quiet mode. The state
   * is read after the listener is attached: a change in between is sent, never lost.
   */
  preferencesEvents(caller: Extract<Caller, { kind: "person" }>): AsyncIterableIterator<Preferences | StreamEnded> {
    const { personId } = caller;
    this.streams.assertRoom(caller.credentialId);
    // Each signal means "read the state now": the first is the initial state (null), the others
    // are changes, each carrying the quiet mode it set. That value is sent as is: a read made
    // after the next change has committed would otherwise show it twice and this one never.
    const signals = listenerStream<boolean | null>((push) => {
      const detach = this.feed.subscribe(personId, { event: () => undefined, quiet: (quietMode) => push(quietMode) });
      push(null);
      return detach;
    }, this.options.maxQueuedEvents);
    const states = pipe(
      signals,
      map(async (quietMode) => {
        const now = await this.directory.preferences(personId);
        return quietMode === null ? now : { ...now, quietMode };
      }),
    );
    // Counted and ended with the credential's other streams: a revoked token hears nothing more.
    return this.streams.bind(caller.credentialId, states);
  }
}
