// Input types. GraphQL checks shapes and enums; domain/validation.ts checks everything else.
import { builder } from "../builder.ts";
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

export const NotificationFilterInput = builder.inputType("NotificationFilter", {
  fields: (t) => ({
    statuses: t.field({ type: [NotificationStatusEnum], required: false, description: "When given, wins over includeTerminal." }),
    scope: t.field({ type: NotificationScopeEnum, required: false }),
    sessionId: t.id({ required: false }),
    engagementId: t.id({ required: false }),
    includeTerminal: t.boolean({ required: false, defaultValue: false }),
    includeSnoozed: t.boolean({ required: false, defaultValue: false }),
  }),
});

export const SourceInput = builder.inputType("SourceInput", {
  fields: (t) => ({ plugin: t.string({ required: true }), subsystem: t.string({ required: false }) }),
});

const DisplayInput = builder.inputType("DisplayInput", {
  description: "Fields left out follow the notification: title, body, severity and the scope's presentation.",
  fields: (t) => ({
    format: t.field({ type: DisplayFormatEnum, required: false }),
    title: t.string({ required: false }),
    body: t.string({ required: false }),
    variant: t.field({ type: VariantEnum, required: false }),
    presentation: t.field({ type: PresentationEnum, required: false }),
    dismissible: t.boolean({ required: false }),
  }),
});

const ActionInput = builder.inputType("ActionInput", {
  fields: (t) => ({
    kind: t.field({ type: ActionKindEnum, required: true }),
    id: t.string({ required: true }),
    label: t.string({ required: true }),
    url: t.string({ required: false }),
    text: t.string({ required: false }),
    actionId: t.string({ required: false }),
    fixedParams: t.field({ type: "JSON", required: false }),
    assetId: t.string({ required: false }),
  }),
});

const OperationInput = builder.inputType("OperationInput", {
  fields: (t) => ({
    id: t.string({ required: true, description: "One execution; guards the key against late updates of older ones." }),
    type: t.string({ required: false }),
    state: t.string({ required: false }),
    phase: t.string({ required: false }),
    elapsedSeconds: t.int({ required: false }),
    cancellable: t.boolean({ required: false }),
  }),
});

const RetentionInput = builder.inputType("RetentionInput", {
  fields: (t) => ({
    policy: t.field({ type: RetentionPolicyEnum, required: true }),
    expiresAt: t.field({ type: "DateTime", required: false }),
    requestId: t.string({ required: false }),
  }),
});

const TriggerInput = builder.inputType("TriggerInput", {
  fields: (t) => ({ type: t.field({ type: TriggerTypeEnum, required: true }), ref: t.string({ required: false }) }),
});

function contentFields(t: Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0], titleRequired: boolean) {
  return {
    title: t.string({ required: titleRequired }),
    body: t.string({ required: false }),
    severity: t.field({ type: SeverityEnum, required: false }),
    source: t.field({ type: SourceInput, required: titleRequired }),
    display: t.field({ type: DisplayInput, required: false }),
    actions: t.field({ type: [ActionInput], required: false }),
    operation: t.field({ type: OperationInput, required: false }),
    uiEffects: t.field({ type: "JSON", required: false }),
    retention: t.field({ type: RetentionInput, required: false }),
    trigger: t.field({ type: TriggerInput, required: false }),
    engagementId: t.id({ required: false }),
    requestId: t.string({ required: false }),
  };
}

export const PublishNotificationInput = builder.inputType("PublishNotificationInput", {
  fields: (t) => ({
    scope: t.field({ type: NotificationScopeEnum, required: true }),
    personId: t.id({ required: false, description: "PERSON scope: the addressee." }),
    sessionId: t.id({ required: false, description: "SESSION scope: a Herald Session.id." }),
    key: t.string({ required: true, description: "Names the stream within the scope target." }),
    ...contentFields(t, true),
  }),
});

export const NotificationPatchInput = builder.inputType("NotificationPatch", {
  description: "Given fields replace the current ones; uiEffects apply to the new revision only.",
  fields: (t) => contentFields(t, false),
});

export const ResolutionInput = builder.inputType("ResolutionInput", {
  fields: (t) => ({ actionId: t.string({ required: false }), values: t.field({ type: "JSON", required: false }) }),
});
