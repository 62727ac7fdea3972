// Read operations. A person reads only their own view; producers read sessions.
import { resolveCursorConnection } from "@pothos/plugin-relay";
import { limits } from "../../domain/limits.ts";
import type { NotificationRecord } from "../../domain/notification.ts";
import { requirePerson } from "../../service/auth-service.ts";
import { builder } from "./builder.ts";
import { PersonRef, SessionRef } from "./types/directory.ts";
import { NotificationFilterInput } from "./types/inputs.ts";
import { NotificationCountsRef, NotificationRef } from "./types/notification.ts";

builder.queryFields((t) => ({
  viewer: t.field({
    type: PersonRef,
    description: "The person behind the person token.",
    resolve: async (_root, _args, ctx) => {
      const { personId } = requirePerson(ctx.caller);
      const person = await ctx.services.directory.findPerson(personId);
      if (!person) throw new Error("The token's person no longer exists");
      return person;
    },
  }),

  notification: t.field({
    type: NotificationRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    description: "Null when absent or not visible to the caller.",
    resolve: (_root, args, ctx) => ctx.services.notifications.get(requirePerson(ctx.caller).personId, String(args.id)),
  }),

  notifications: t.connection(
    {
      type: NotificationRef,
      description: "Newest first (createdAt, then id), keyset-paginated; cursors are bound to the caller.",
      args: { filter: t.arg({ type: NotificationFilterInput, required: false }) },
      resolve: async (_root, args, ctx) => {
        const { personId } = requirePerson(ctx.caller);
        const page = await ctx.services.notifications.page(personId, args.filter, args);
        const connection = (await resolveCursorConnection<Promise<NotificationRecord[]>>(
          {
            args: { ...args, first: page.first, last: page.last },
            defaultSize: limits.defaultPageSize,
            maxSize: limits.pageSize,
            toCursor: (n) => page.cursorOf(n),
          },
          ({ limit, inverted }) => page.fetch({ after: page.after, before: page.before, limit, inverted }),
        ))!;
        let total: Promise<number> | undefined;
        return Object.assign(connection, {
          totalCount: () => (total ??= ctx.services.notifications.total(personId, args.filter)),
        });
      },
    },
    {
      fields: (c) => ({
        totalCount: c.int({ resolve: (connection) => (connection as unknown as { totalCount: () => Promise<number> }).totalCount() }),
      }),
    },
  ),

  notificationEventsCursor: t.string({
    description:
      "Where the caller's event stream stands now. Read it before a snapshot, then subscribe to notificationEvents(after:) with it: nothing committed in between is missed.",
    resolve: (_root, _args, ctx) => ctx.services.realtime.headCursor(requirePerson(ctx.caller).personId),
  }),

  notificationCounts: t.field({
    type: NotificationCountsRef,
    args: { filter: t.arg({ type: NotificationFilterInput, required: false }) },
    resolve: (_root, args, ctx) => ctx.services.notifications.counts(requirePerson(ctx.caller).personId, args.filter),
  }),

  session: t.field({
    type: SessionRef,
    nullable: true,
    args: { harness: t.arg.string({ required: true }), sessionId: t.arg.string({ required: true }) },
    description: "Persons see only their own sessions; producers see any.",
    resolve: (_root, args, ctx) => {
      if (!ctx.caller) requirePerson(ctx.caller);
      const viewer = ctx.caller!.kind === "person" ? ctx.caller!.personId : null;
      return ctx.services.directory.findSession(args.harness, args.sessionId, viewer);
    },
  }),
}));
