// What subscriptions read: a person's event stream and the producers' action invocations.
// Protocol: docs/event-stream.md.
import type { ActionInvocationMessage } from "../events/bus.ts";
import type { EventFeed } from "../events/event-feed.ts";
import { listenerIterator } from "../events/listener-iterator.ts";
import { personEventStream, type StreamItem } from "../events/person-stream.ts";
import type { Logger } from "../logger.ts";
import type { EventLog } from "../storage/event-log.ts";
import type { CursorCodec } from "./cursor.ts";
import type { DirectoryService } from "./directory-service.ts";
import type { NotificationService } from "./notification-service.ts";

export interface RealtimeOptions {
  /** Live events a connection may have waiting before it is closed as too slow. */
  maxQueuedEvents: number;
}

export class RealtimeService {
  constructor(
    private readonly feed: EventFeed,
    private readonly log: EventLog,
    private readonly notifications: NotificationService,
    private readonly directory: DirectoryService,
    private readonly cursors: CursorCodec,
    private readonly logger: Logger,
    private readonly options: RealtimeOptions,
  ) {}

  /** Validates the cursor first, so a forged one fails the subscription instead of the stream. */
  notificationEvents(personId: string, after: string | null | undefined): AsyncIterableIterator<StreamItem> {
    const afterSeq = after ? this.cursors.decodeSeq(personId, after, "after") : null;
    return personEventStream(
      {
        feed: this.feed,
        log: this.log,
        quietMode: (id) => this.directory.quietMode(id),
        markDelivered: (id, notificationId) => {
          this.notifications.markDelivered(id, notificationId).catch((error: Error) => {
            this.logger.warn({ err: error.message }, "could not mark a notification delivered");
          });
        },
        maxQueuedEvents: this.options.maxQueuedEvents,
      },
      personId,
      afterSeq,
    );
  }

  /**
   * The person's position in the event stream now. A client that reads it before a snapshot
   * and then subscribes with it as `after` misses nothing committed in between.
   */
  async headCursor(personId: string): Promise<string> {
    return this.cursors.encodeSeq(personId, await this.log.maxSeq());
  }

  cursorFor(personId: string, seq: number): string {
    return this.cursors.encodeSeq(personId, seq);
  }

  /** Live invocations of RUN_ACTION follow-ups, optionally only those of one plugin. */
  actionInvocations(plugin: string | null): AsyncIterableIterator<ActionInvocationMessage> {
    return listenerIterator(
      (push) =>
        this.feed.onInvocation((invocation) => {
          if (plugin === null || invocation.sourcePlugin === plugin) push(invocation);
        }),
      this.options.maxQueuedEvents,
    );
  }

  /**
   * The person's preferences now, then again after every change (from any instance, by the
   * person or a producer), so every open tab and device shows the same quiet mode. The state
   * is read after the listener is attached: a change in between is sent, never lost.
   */
  preferencesEvents(personId: string): AsyncIterableIterator<{ quietMode: boolean }> {
    // Each signal means "read the state now": the first is the initial state, the others are changes.
    const signals = listenerIterator<true>((push) => {
      const detach = this.feed.subscribe(personId, { event: () => undefined, quiet: () => push(true) });
      push(true);
      return detach;
    }, this.options.maxQueuedEvents);
    const directory = this.directory;
    const states: AsyncIterableIterator<{ quietMode: boolean }> = {
      async next() {
        const signal = await signals.next();
        if (signal.done) return { done: true, value: undefined };
        return { done: false, value: { quietMode: await directory.quietMode(personId) } };
      },
      return: async () => {
        await signals.return!();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => states,
    };
    return states;
  }
}
