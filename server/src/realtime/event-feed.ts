// One instance's ordered view of the deployment's events. Bus messages may arrive late, twice,
// out of order or not at all; the feed hands its subscribers every event exactly once, in
// sequence order, filling gaps from the event log (which has every committed event: sequence
// numbers become visible in commit order, see storage/notifications/notification-store.ts).
// Protocol: docs/event-stream.md.
import type { Logger } from "../logger.ts";
import type { ActionInvocationMessage, BusMessage, EventBus } from "../events/bus.ts";
import type { CommittedEvent } from "../events/committed-event.ts";
import type { EventLogReader } from "../events/event-log-reader.ts";
import { type HeraldObserver, noObserver } from "../events/observer.ts";

export interface PersonListener {
  event(event: CommittedEvent): void;
  quiet(quietMode: boolean): void;
  /** False while a stream has not yet fixed where it starts (absent: live once subscribed). */
  readonly live?: boolean;
}

export interface FeedOptions {
  /** How long a gap may wait for a late bus message before the log is read. */
  gapWaitMs: number;
  /** Safety net against lost bus messages: how often the log is checked for unseen events. */
  pollMs: number;
  observer?: HeraldObserver;
}

const CATCH_UP_PAGE = 500;

export class EventFeed {
  private next = 1;
  private readonly pending = new Map<number, CommittedEvent>();
  private readonly persons = new Map<string, Set<PersonListener>>();
  private readonly invocationListeners = new Set<(invocation: ActionInvocationMessage) => void>();
  private readonly revocationListeners = new Set<(credentialIds: string[]) => void>();
  private readonly cleanups: (() => void)[] = [];
  private catchingUp: Promise<void> | null = null;
  private gapTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly bus: EventBus,
    private readonly log: EventLogReader,
    private readonly logger: Logger,
    private readonly options: FeedOptions,
  ) {}

  async start(): Promise<void> {
    this.next = (await this.log.maxSeq()) + 1;
    this.cleanups.push(this.bus.subscribe((message) => this.onMessage(message)));
    this.cleanups.push(this.bus.onResync(() => void this.catchUp()));
    const poll = setInterval(() => void this.catchUp(), this.options.pollMs);
    poll.unref();
    this.cleanups.push(() => clearInterval(poll));
  }

  stop(): void {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    if (this.gapTimer) clearTimeout(this.gapTimer);
    this.persons.clear();
    this.invocationListeners.clear();
    this.revocationListeners.clear();
  }

  /** The last sequence number handed to subscribers. */
  get head(): number {
    return this.next - 1;
  }

  /** Number of registered person listeners (for leak checks). */
  get listenerCount(): number {
    let count = 0;
    for (const set of this.persons.values()) count += set.size;
    return count + this.invocationListenerCount;
  }

  /**
   * Open streams of one person that are live: tests wait on these before publishing to a
   * live-only stream. A stream that has subscribed but not yet read where "now" is in the log
   * is left out, as an event committed before that read is not its to send (person-stream.ts).
   */
  listenersOf(personId: string): number {
    let count = 0;
    for (const listener of this.persons.get(personId) ?? []) if (listener.live !== false) count++;
    return count;
  }

  get invocationListenerCount(): number {
    return this.invocationListeners.size;
  }

  subscribe(personId: string, listener: PersonListener): () => void {
    let set = this.persons.get(personId);
    if (!set) this.persons.set(personId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.persons.get(personId) === set) this.persons.delete(personId);
    };
  }

  onInvocation(listener: (invocation: ActionInvocationMessage) => void): () => void {
    this.invocationListeners.add(listener);
    return () => this.invocationListeners.delete(listener);
  }

  /** Credentials revoked anywhere in the deployment (their streams must end on this instance). */
  onRevoked(listener: (credentialIds: string[]) => void): () => void {
    this.revocationListeners.add(listener);
    return () => this.revocationListeners.delete(listener);
  }

  /** Reads the log past the head and hands over what it finds (also fills gaps). */
  catchUp(): Promise<void> {
    this.catchingUp ??= (async () => {
      try {
        for (;;) {
          const events = await this.log.readAfter(this.head, CATCH_UP_PAGE);
          for (const event of events) this.accept(event, true);
          if (events.length < CATCH_UP_PAGE) break;
        }
      } catch (error) {
        this.logger.warn({ err: (error as Error).message }, "event feed catch-up failed; will retry");
      } finally {
        this.catchingUp = null;
      }
    })();
    return this.catchingUp;
  }

  private onMessage(message: BusMessage) {
    if (message.kind === "event") this.accept(message.event, false);
    else if (message.kind === "quiet") {
      for (const listener of this.persons.get(message.personId) ?? []) listener.quiet(message.quietMode);
    } else if (message.kind === "invocation") {
      for (const listener of this.invocationListeners) listener(message.invocation);
    } else if (message.kind === "revoked" && Array.isArray(message.credentialIds)) {
      for (const listener of this.revocationListeners) listener(message.credentialIds);
    }
  }

  private accept(event: CommittedEvent, fromLog: boolean) {
    if (event.seq < this.next) return;
    // The log is authoritative: if it has no event between the head and this one, there is none.
    if (fromLog && event.seq > this.next) this.next = event.seq;
    this.pending.set(event.seq, event);
    for (let e = this.pending.get(this.next); e; e = this.pending.get(this.next)) {
      this.pending.delete(this.next);
      this.next++;
      this.dispatch(e);
    }
    if (this.pending.size > 0 && !this.gapTimer) {
      this.gapTimer = setTimeout(() => {
        this.gapTimer = null;
        void this.catchUp();
      }, this.options.gapWaitMs);
      this.gapTimer.unref();
    }
  }

  private dispatch(event: CommittedEvent) {
    // Instances' clocks may differ a little; a negative lag is noise, not news.
    if (event.committedAt !== undefined) (this.options.observer ?? noObserver).fannedOut(Math.max(0, Date.now() - event.committedAt));
    if (event.personId !== null) {
      for (const listener of this.persons.get(event.personId) ?? []) listener.event(event);
      return;
    }
    for (const set of this.persons.values()) for (const listener of set) listener.event(event);
  }
}
