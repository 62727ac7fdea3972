// Notifications as a person sees them: the Notification type and its parts, the reads, the
// person's own mutations and the live `notificationEvents` stream (protocol:
// docs/event-stream.md). A person token reaches only that person's notifications.
import { sessionVisible } from "../../service/plugin-scope.ts";
import { resolveCursorConnection } from "@pothos/plugin-relay";
import type { StreamItem } from "../../realtime/person-stream.ts";
import { CURSOR_PLACEHOLDER, splicesCursor } from "../../realtime/shared-render.ts";
import { limits } from "../../domain/limits.ts";
import { resolveDisplay } from "../../domain/presentation.ts";
import { renderMarkdown } from "../../domain/markdown.ts";
import { LRUCache } from "lru-cache";
import type { Display, FollowUpAction, NotificationRecord, Operation, Resolution } from "../../domain/notification.ts";
import { requirePerson } from "../../service/auth-service.ts";
import { requireProducer } from "../../service/producer-rights.ts";
import { StreamEnded } from "../../realtime/stream-registry.ts";
import { builder } from "./builder.ts";
import { endedOr, type GraphQLContext, memoize } from "./context.ts";
import { EngagementRef, SessionRef } from "./directory.ts";
import {
  ActionKindEnum,
  DisplayFormatEnum,
  NotificationEventTypeEnum,
  NotificationScopeEnum,
  NotificationStatusEnum,
  PresentationEnum,
  RetentionPolicyEnum,
  SeverityEnum,
  TriggerTypeEnum,
  VariantEnum,
} from "./enums.ts";
import { asResult, DismissNotificationResult } from "./errors.ts";
import { connectionNodeFields, type ReadsOf } from "./notification-selection.ts";

// ---- types -----------------------------------------------------------------------------

const SourceRef = builder.objectRef<NotificationRecord["source"]>("NotificationSource").implement({
  fields: (t) => ({
    plugin: t.exposeString("plugin"),
    subsystem: t.exposeString("subsystem", { nullable: true }),
  }),
});

export const DisplayRef = builder.objectRef<Display>("NotificationDisplay").implement({
  fields: (t) => ({
    format: t.expose("format", { type: DisplayFormatEnum }),
    title: t.exposeString("title"),
    body: t.exposeString("body"),
    variant: t.expose("variant", { type: VariantEnum }),
    presentation: t.expose("presentation", { type: PresentationEnum }),
    dismissible: t.exposeBoolean("dismissible"),
    bodyHtml: t.string({
      nullable: true,
      description:
        "MARKDOWN bodies rendered as HTML that is safe to insert: raw HTML escaped, images as their alt text, links http(s) only and opened in a new tab; null for TEXT.",
      resolve: (d) => (d.format === "MARKDOWN" ? renderedMarkdown(d.body) : null),
    }),
  }),
});

// A list shows the same bodies again and again (every page, every live revision): each is parsed
// once while it is among the recent ones; bounded by characters kept, not by entries.
const rendered = new LRUCache<string, string>({ maxSize: 4_000_000, sizeCalculation: (html, body) => html.length + body.length });
function renderedMarkdown(body: string): string {
  let html = rendered.get(body);
  if (html === undefined) rendered.set(body, (html = renderMarkdown(body)));
  return html;
}

export const FollowUpActionRef = builder.objectRef<FollowUpAction>("NotificationAction").implement({
  fields: (t) => ({
    kind: t.expose("kind", { type: ActionKindEnum }),
    id: t.exposeString("id"),
    label: t.exposeString("label"),
    url: t.exposeString("url", { nullable: true }),
    text: t.exposeString("text", { nullable: true }),
    actionId: t.exposeString("actionId", { nullable: true }),
    fixedParams: t.expose("fixedParams", { type: "JSON", nullable: true }),
    assetId: t.exposeString("assetId", { nullable: true }),
    // JSON, not a list of FormField objects: every publish result carries the record up to four
    // times, and nested objects there would pass the query cost limit (docs/decisions.md).
    form: t.field({
      type: "JSON",
      nullable: true,
      description: "RUN_ACTION: the form's fields, a list of FormField objects ({ name label type required options placeholder maxLength }).",
      resolve: (a) => (a.form ?? null) as never,
    }),
  }),
});

const OperationRef = builder.objectRef<Operation>("NotificationOperation").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    type: t.exposeString("type", { nullable: true }),
    state: t.exposeString("state", { nullable: true }),
    phase: t.exposeString("phase", { nullable: true }),
    elapsedSeconds: t.exposeInt("elapsedSeconds", { nullable: true }),
    cancellable: t.exposeBoolean("cancellable"),
  }),
});

const RetentionRef = builder.objectRef<NotificationRecord["retention"]>("NotificationRetention").implement({
  fields: (t) => ({
    policy: t.expose("policy", { type: RetentionPolicyEnum }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true }),
    requestId: t.exposeString("requestId", { nullable: true }),
  }),
});

const TriggerRef = builder.objectRef<NotificationRecord["trigger"]>("NotificationTrigger").implement({
  fields: (t) => ({
    type: t.expose("type", { type: TriggerTypeEnum }),
    ref: t.exposeString("ref", { nullable: true }),
  }),
});

const ResolutionRef = builder.objectRef<Resolution>("NotificationResolution").implement({
  fields: (t) => ({
    actionId: t.exposeString("actionId", { nullable: true }),
    values: t.expose("values", { type: "JSON", nullable: true }),
  }),
});

export const NotificationRef = builder.objectRef<NotificationRecord>("Notification").implement({
  description: "One occurrence of a notification stream (scope target + key), at its current revision.",
  fields: (t) => ({
    id: t.exposeID("id"),
    key: t.exposeString("key"),
    revision: t.exposeInt("revision"),
    scope: t.expose("scope", { type: NotificationScopeEnum }),
    sessionId: t.exposeID("sessionId", { nullable: true }),
    personId: t.exposeID("personId", { nullable: true }),
    status: t.expose("status", { type: NotificationStatusEnum, description: "The caller's own status of it." }),
    severity: t.expose("severity", { type: SeverityEnum }),
    title: t.exposeString("title"),
    body: t.exposeString("body"),
    source: t.field({ type: SourceRef, resolve: (n) => n.source }),
    display: t.field({ type: DisplayRef, resolve: (n: ReadsOf<"display">) => resolveDisplay(n.scope, n) }),
    actions: t.field({ type: [FollowUpActionRef], resolve: (n) => n.actions }),
    operation: t.field({ type: OperationRef, nullable: true, resolve: (n) => n.operation }),
    uiEffects: t.expose("uiEffects", {
      type: "JSON",
      nullable: true,
      description: "Refresh effects of this revision only; never inherited by later revisions.",
    }),
    data: t.expose("data", { type: "JSON", nullable: true, description: "The producer's own data, as it sent it." }),
    retention: t.field({ type: RetentionRef, resolve: (n) => n.retention }),
    trigger: t.field({ type: TriggerRef, resolve: (n) => n.trigger }),
    engagement: t.field({
      type: EngagementRef,
      nullable: true,
      resolve: (n: ReadsOf<"engagement">, _args, ctx) =>
        n.engagementId ? memoize(ctx, `engagement:${n.engagementId}`, () => ctx.services.directory.findEngagement(n.engagementId!)) : null,
    }),
    session: t.field({
      type: SessionRef,
      nullable: true,
      description: "The session it is addressed to; for a key bound to a plugin, null unless it is that plugin's harness's.",
      resolve: async (n: ReadsOf<"session">, _args, ctx) => {
        if (!n.sessionId) return null;
        const session = await memoize(ctx, `session:${n.sessionId}`, () => ctx.services.directory.findSessionById(n.sessionId!));
        return sessionVisible(ctx.caller?.kind === "producer" ? ctx.caller.plugin : null, session) ? session : null;
      },
    }),
    requestId: t.exposeString("requestId", { nullable: true }),
    resolution: t.field({ type: ResolutionRef, nullable: true, resolve: (n) => n.resolution }),
    terminalReason: t.exposeString("terminalReason", {
      nullable: true,
      description:
        "Why it was dismissed or expired; null while active and when resolved. APPLICATION scope: the caller's own dismissal reason, or the producer's expiry reason once it ended the record.",
    }),
    snoozedUntil: t.expose("snoozedUntil", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    deliveredAt: t.expose("deliveredAt", { type: "DateTime", nullable: true }),
    seenAt: t.expose("seenAt", { type: "DateTime", nullable: true }),
    readAt: t.expose("readAt", {
      type: "DateTime",
      nullable: true,
      description: "When the caller opened or acted on it; null while unread. A new revision is unread again.",
    }),
    dismissedAt: t.expose("dismissedAt", { type: "DateTime", nullable: true }),
    resolvedAt: t.expose("resolvedAt", { type: "DateTime", nullable: true }),
    expiredAt: t.expose("expiredAt", { type: "DateTime", nullable: true }),
  }),
});

export const NotificationCountsRef = builder.objectRef<{ total: number; unseen: number; unread: number }>("NotificationCounts").implement({
  description: "Each equals the totalCount of a list with the same filter (and statuses PENDING, DELIVERED for unseen; unread: true for unread).",
  fields: (t) => ({ total: t.exposeInt("total"), unseen: t.exposeInt("unseen"), unread: t.exposeInt("unread") }),
});

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

export const NotificationFilterInput = builder.inputType("NotificationFilter", {
  fields: (t) => ({
    statuses: t.field({ type: [NotificationStatusEnum], required: false, description: "When given, wins over includeTerminal." }),
    scope: t.field({ type: NotificationScopeEnum, required: false }),
    sessionId: t.id({ required: false }),
    engagementId: t.id({ required: false }),
    includeTerminal: t.boolean({ required: false, defaultValue: false }),
    includeSnoozed: t.boolean({ required: false, defaultValue: false }),
    severities: t.field({ type: [SeverityEnum], required: false, description: "Only these severities; empty or absent: all." }),
    plugins: t.stringList({ required: false, description: "Only these source plugins (at most 100); empty or absent: all." }),
    excludePlugins: t.stringList({
      required: false,
      description: "Leaves out these source plugins (at most 100), e.g. the caller's muted sources; empty or absent: none.",
    }),
    unread: t.boolean({ required: false, description: "true: only unread (readAt null); false: only read; absent: both." }),
  }),
});

// ---- reads -----------------------------------------------------------------------------

builder.queryFields((t) => ({
  notification: t.field({
    type: NotificationRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    description: "Null when absent or not visible to the caller.",
    resolve: (_root, args, ctx) =>
      // A bound key reads back its own plugin's records (an agent asks how its question was
      // answered); an admin key has no person, so it is refused like any person-only read.
      ctx.caller?.kind === "producer" && ctx.caller.plugin !== null
        ? ctx.services.notifications.producerGet(String(args.id), requireProducer(ctx.caller, "notification").plugin)
        : ctx.services.notifications.get(requirePerson(ctx.caller).personId, String(args.id)),
  }),

  notifications: t.connection(
    {
      type: NotificationRef,
      description: "Newest first (createdAt, then id), keyset-paginated; cursors are bound to the caller.",
      args: { filter: t.arg({ type: NotificationFilterInput, required: false }) },
      resolve: async (_root, args, ctx, info) => {
        const { personId } = requirePerson(ctx.caller);
        const page = await ctx.services.notifications.page(personId, args.filter, args);
        const fields = connectionNodeFields(info);
        const connection = (await resolveCursorConnection<Promise<NotificationRecord[]>>(
          {
            args: { ...args, first: page.first, last: page.last },
            defaultSize: limits.defaultPageSize,
            maxSize: limits.pageSize,
            toCursor: (n) => page.cursorOf(n),
          },
          ({ limit, inverted }) => page.fetch({ after: page.after, before: page.before, limit, inverted }, fields),
        ))!;
        let total: Promise<number> | undefined;
        return Object.assign(connection, {
          totalCount: () => (total ??= ctx.services.notifications.total(personId, args.filter)),
        });
      },
    },
    {
      name: "NotificationConnection",
      fields: (c) => ({
        totalCount: c.int({ resolve: (connection) => (connection as unknown as { totalCount: () => Promise<number> }).totalCount() }),
      }),
    },
    { name: "NotificationEdge" },
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
}));

// ---- the person's own changes ----------------------------------------------------------

builder.mutationFields((t) => ({
  markNotificationsSeen: t.field({
    type: [NotificationRef],
    args: { ids: t.arg.idList({ required: true }) },
    description: "Returns the notifications that are visible to the caller; other ids are ignored.",
    resolve: (_root, args, ctx) => ctx.services.notifications.markSeen(requirePerson(ctx.caller).personId, args.ids.map(String)),
  }),

  markAllNotificationsSeen: t.int({
    args: { filter: t.arg({ type: NotificationFilterInput, required: false }) },
    description: "How many changed.",
    resolve: (_root, args, ctx) => ctx.services.notifications.markAllSeen(requirePerson(ctx.caller).personId, args.filter),
  }),

  markNotificationsRead: t.field({
    type: [NotificationRef],
    args: { ids: t.arg.idList({ required: true }) },
    description: "Marks them read (and seen) for the caller. Returns the notifications that are visible to the caller; other ids are ignored.",
    resolve: (_root, args, ctx) => ctx.services.notifications.markRead(requirePerson(ctx.caller).personId, args.ids.map(String)),
  }),

  markNotificationsUnread: t.field({
    type: [NotificationRef],
    args: { ids: t.arg.idList({ required: true }) },
    description: "Marks them unread for the caller; seen stays. Returns the notifications that are visible to the caller; other ids are ignored.",
    resolve: (_root, args, ctx) => ctx.services.notifications.markUnread(requirePerson(ctx.caller).personId, args.ids.map(String)),
  }),

  markAllNotificationsRead: t.int({
    args: { filter: t.arg({ type: NotificationFilterInput, required: false }) },
    description: "Marks read (and seen) what the filtered list holds unread, for the caller; how many changed.",
    resolve: (_root, args, ctx) => ctx.services.notifications.markAllRead(requirePerson(ctx.caller).personId, args.filter),
  }),

  dismissAll: t.int({
    args: { filter: t.arg({ type: NotificationFilterInput, required: false }) },
    description:
      "Dismisses, for the caller only, the notifications they have seen at their current revision (a newer revision stays); how many changed. Non-dismissible ones stay.",
    resolve: (_root, args, ctx) => ctx.services.notifications.dismissAllSeen(requirePerson(ctx.caller).personId, args.filter),
  }),

  dismissNotification: t.field({
    type: DismissNotificationResult,
    args: {
      id: t.arg.id({ required: true }),
      expectedRevision: t.arg.int({ required: false }),
      reason: t.arg.string({ required: false }),
    },
    resolve: (_root, args, ctx) => {
      const { personId } = requirePerson(ctx.caller);
      return asResult(DismissNotificationResult, () =>
        ctx.services.notifications.dismiss(personId, String(args.id), args.expectedRevision ?? null, args.reason),
      );
    },
  }),

  snoozeNotification: t.field({
    type: NotificationRef,
    args: { id: t.arg.id({ required: true }), until: t.arg({ type: "DateTime", required: true }) },
    resolve: (_root, args, ctx) => ctx.services.notifications.snooze(requirePerson(ctx.caller).personId, String(args.id), args.until),
  }),

  unsnoozeNotification: t.field({
    type: NotificationRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.notifications.unsnooze(requirePerson(ctx.caller).personId, String(args.id)),
  }),
}));

// ---- live ------------------------------------------------------------------------------

// A person's streams get one item object per event (realtime/person-stream.ts; persons without a
// receipt of a shared record share one), and alike subscriptions render it once (realtime/shared-render.ts).
// Its payload carries the cursor signed once per (person, event); a render shared across persons
// carries the placeholder instead, which the transport replaces with each person's own cursor.
const payloads = new WeakMap<StreamItem, Map<string, EventShape>>();
const splicedPayloads = new WeakMap<StreamItem, EventShape>();
function payloadFor(item: StreamItem, personId: string, cursor: () => string): EventShape {
  let byPerson = payloads.get(item);
  if (!byPerson) payloads.set(item, (byPerson = new Map()));
  let payload = byPerson.get(personId);
  if (!payload) byPerson.set(personId, (payload = { ...item, cursor: cursor() }));
  return payload;
}

/** The caller's own payload of an item: its cursor signed once per (person, event). */
function callersPayload(ctx: GraphQLContext, item: StreamItem): EventShape {
  const { personId } = requirePerson(ctx.caller);
  return payloadFor(item, personId, () => ctx.services.realtime.cursorFor(personId, item));
}

/** The caller's cursor of a live event, for the transport's splice. */
export function eventCursor(ctx: GraphQLContext, event: unknown): string | undefined {
  if (event instanceof StreamEnded || typeof event !== "object" || event === null) return undefined;
  return callersPayload(ctx, event as StreamItem).cursor;
}

builder.subscriptionFields((t) => ({
  notificationEvents: t.field({
    type: NotificationEventRef,
    args: { after: t.arg.string({ required: false, description: "Replay every event after this cursor first." }) },
    subscribe: async (_root, args, ctx) => {
      const caller = requirePerson(ctx.caller);
      const realtime = ctx.services.realtime;
      // Refused before the stream opens: a cursor older than what the history limit pruned.
      if (args.after) await ctx.services.history.assertResumable(realtime.afterSeq(caller.personId, args.after));
      return realtime.notificationEvents(caller, args.after);
    },
    resolve: (event: StreamItem | StreamEnded, _args, ctx) => {
      // A subscription keeps one context for its whole life: each event starts with an empty memo
      // (a stale session label must not outlive it). The root field resolves before its fields.
      ctx.memo = new Map();
      const item = endedOr(event);
      if (splicesCursor(ctx)) {
        let payload = splicedPayloads.get(item);
        if (!payload) splicedPayloads.set(item, (payload = { ...item, cursor: CURSOR_PLACEHOLDER }));
        return payload;
      }
      return callersPayload(ctx, item);
    },
  }),
}));
