// What subscriptions read: a person's event stream and the producers' action invocations.
// Protocol: docs/event-stream.md.
import type { ActionInvocationMessage } from "../events/bus.ts";
import type { EventFeed } from "../events/event-feed.ts";
import type { HeraldObserver } from "../events/observer.ts";
import { personEventStream, type StreamItem } from "../events/person-stream.ts";
import type { Logger } from "../logger.ts";
import type { EventLog } from "../storage/event-log.ts";
import type { CursorCodec } from "./cursor.ts";
import type { DirectoryService } from "./directory-service.ts";
import type { NotificationService } from "./notification-service.ts";

export interface RealtimeOptions {
  /** Live events a connection may have waiting before it is closed as too slow. */
  maxQueuedEvents: number;
  observer?: HeraldObserver;
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
        observer: this.options.observer,
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
    const queue: ActionInvocationMessage[] = [];
    let wake: (() => void) | null = null;
    let closed = false;
    const unsubscribe = this.feed.onInvocation((invocation) => {
      if (plugin !== null && invocation.sourcePlugin !== plugin) return;
      if (queue.length < this.options.maxQueuedEvents) queue.push(invocation);
      wake?.();
    });
    const finish = () => {
      closed = true;
      unsubscribe();
      wake?.();
    };
    const iterator: AsyncIterableIterator<ActionInvocationMessage> = {
      async next() {
        while (!closed) {
          const item = queue.shift();
          if (item) return { done: false, value: item };
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
        return { done: true, value: undefined };
      },
      async return() {
        finish();
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }
}
