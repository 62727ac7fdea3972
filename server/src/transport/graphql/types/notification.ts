// The Notification type of the public contract and its parts.
import { resolveDisplay } from "../../../domain/presentation.ts";
import type { Display, FollowUpAction, NotificationRecord, Operation, Resolution } from "../../../domain/notification.ts";
import { builder } from "../builder.ts";
import { memoize } from "../context.ts";
import { EngagementRef, SessionRef } from "./directory.ts";
import {
  ActionKindEnum,
  DisplayFormatEnum,
  NotificationScopeEnum,
  NotificationStatusEnum,
  PresentationEnum,
  RetentionPolicyEnum,
  SeverityEnum,
  TriggerTypeEnum,
  VariantEnum,
} from "./enums.ts";

const SourceRef = builder.objectRef<NotificationRecord["source"]>("NotificationSource").implement({
  fields: (t) => ({
    plugin: t.exposeString("plugin"),
    subsystem: t.exposeString("subsystem", { nullable: true }),
  }),
});

const DisplayRef = builder.objectRef<Display>("NotificationDisplay").implement({
  fields: (t) => ({
    format: t.expose("format", { type: DisplayFormatEnum }),
    title: t.exposeString("title"),
    body: t.exposeString("body"),
    variant: t.expose("variant", { type: VariantEnum }),
    presentation: t.expose("presentation", { type: PresentationEnum }),
    dismissible: t.exposeBoolean("dismissible"),
  }),
});

const ActionRef = builder.objectRef<FollowUpAction>("NotificationAction").implement({
  fields: (t) => ({
    kind: t.expose("kind", { type: ActionKindEnum }),
    id: t.exposeString("id"),
    label: t.exposeString("label"),
    url: t.exposeString("url", { nullable: true }),
    text: t.exposeString("text", { nullable: true }),
    actionId: t.exposeString("actionId", { nullable: true }),
    fixedParams: t.expose("fixedParams", { type: "JSON", nullable: true }),
    assetId: t.exposeString("assetId", { nullable: true }),
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
    display: t.field({ type: DisplayRef, resolve: (n) => resolveDisplay(n.scope, n) }),
    actions: t.field({ type: [ActionRef], resolve: (n) => n.actions }),
    operation: t.field({ type: OperationRef, nullable: true, resolve: (n) => n.operation }),
    uiEffects: t.expose("uiEffects", {
      type: "JSON",
      nullable: true,
      description: "Refresh effects of this revision only; never inherited by later revisions.",
    }),
    retention: t.field({ type: RetentionRef, resolve: (n) => n.retention }),
    trigger: t.field({ type: TriggerRef, resolve: (n) => n.trigger }),
    engagement: t.field({
      type: EngagementRef,
      nullable: true,
      resolve: (n, _args, ctx) =>
        n.engagementId
          ? memoize(ctx, `engagement:${n.engagementId}`, () => ctx.services.directory.findEngagement(n.engagementId!))
          : null,
    }),
    session: t.field({
      type: SessionRef,
      nullable: true,
      resolve: (n, _args, ctx) =>
        n.sessionId ? memoize(ctx, `session:${n.sessionId}`, () => ctx.services.directory.findSessionById(n.sessionId!)) : null,
    }),
    requestId: t.exposeString("requestId", { nullable: true }),
    resolution: t.field({ type: ResolutionRef, nullable: true, resolve: (n) => n.resolution }),
    snoozedUntil: t.expose("snoozedUntil", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    deliveredAt: t.expose("deliveredAt", { type: "DateTime", nullable: true }),
    seenAt: t.expose("seenAt", { type: "DateTime", nullable: true }),
    dismissedAt: t.expose("dismissedAt", { type: "DateTime", nullable: true }),
    resolvedAt: t.expose("resolvedAt", { type: "DateTime", nullable: true }),
    expiredAt: t.expose("expiredAt", { type: "DateTime", nullable: true }),
  }),
});

export const NotificationCountsRef = builder.objectRef<{ total: number; unseen: number }>("NotificationCounts").implement({
  fields: (t) => ({ total: t.exposeInt("total"), unseen: t.exposeInt("unseen") }),
});
