// A person's reads of the sessions and engagements their notifications belong to, so a page
// about one can name it even when it holds no notification.
import { requirePerson } from "../../service/auth-service.ts";
import { builder } from "./builder.ts";
import { EngagementRef, SessionRef } from "./types/directory.ts";

builder.queryFields((t) => ({
  sessionById: t.field({
    type: SessionRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    description: "One of the caller's own sessions by Herald's id; null when absent or not the caller's.",
    resolve: (_root, args, ctx) => ctx.services.directory.sessionOf(requirePerson(ctx.caller).personId, String(args.id)),
  }),

  engagement: t.field({
    type: EngagementRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    description: "An engagement the caller is a member of; null when absent or the caller is not a member.",
    resolve: (_root, args, ctx) => ctx.services.directory.engagementOf(requirePerson(ctx.caller).personId, String(args.id)),
  }),
}));
