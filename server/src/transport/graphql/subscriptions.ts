// Live operations, served over SSE (graphql-sse protocol at /graphql/stream, and distinct
// connections at /graphql).
import type { StreamItem } from "../../events/person-stream.ts";
import { requirePerson, requireProducer } from "../../service/auth-service.ts";
import { StreamEnded } from "../../service/stream-registry.ts";
import { builder } from "./builder.ts";
import { ActionInvocationRef } from "./types/action-invocation.ts";
import { NotificationEventTypeEnum } from "./types/enums.ts";
import { NotificationRef } from "./types/notification.ts";

interface EventShape extends StreamItem {
  cursor: string;
}

const NotificationEventRef = builder.objectRef<EventShape>("NotificationEvent").implement({
  description: "One committed change. Pass the last cursor as `after` to resume without a gap.",
  fields: (t) => ({
    cursor: t.exposeString("cursor", { description: "Opaque, strictly increasing per person, bound to the person." }),
    type: t.expose("type", { type: NotificationEventTypeEnum }),
    notification: t.field({ type: NotificationRef, resolve: (e) => e.notification }),
  }),
});

builder.subscriptionFields((t) => ({
  notificationEvents: t.field({
    type: NotificationEventRef,
    args: { after: t.arg.string({ required: false, description: "Replay every event after this cursor first." }) },
    subscribe: (_root, args, ctx) => {
      const caller = requirePerson(ctx.caller);
      const stream = ctx.services.realtime.notificationEvents(caller, args.after);
      const realtime = ctx.services.realtime;
      return mapIterator(stream, (item) => (item instanceof StreamEnded ? item : { ...item, cursor: realtime.cursorFor(caller.personId, item.seq) }));
    },
    resolve: (event: EventShape | StreamEnded) => endedOr(event),
  }),

  actionInvocations: t.field({
    type: ActionInvocationRef,
    args: { plugin: t.arg.string({ required: false, description: "Only invocations of this plugin's notifications." }) },
    subscribe: (_root, args, ctx) => ctx.services.realtime.actionInvocations(requireProducer(ctx.caller), args.plugin ?? null),
    resolve: (invocation) => endedOr(invocation),
  }),
}));

/** A stream ended for its caller's sake (revoked credential) carries the reason as its last result. */
function endedOr<T>(value: T | StreamEnded): T {
  if (value instanceof StreamEnded) throw value.error;
  return value;
}

/** Maps an async iterator lazily, passing return() through so the source is released. */
function mapIterator<T, U>(source: AsyncIterableIterator<T>, map: (value: T) => U): AsyncIterableIterator<U> {
  const mapped: AsyncIterableIterator<U> = {
    async next() {
      const result = await source.next();
      return result.done ? { done: true, value: undefined } : { done: false, value: map(result.value) };
    },
    async return() {
      await source.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => mapped,
  };
  return mapped;
}
