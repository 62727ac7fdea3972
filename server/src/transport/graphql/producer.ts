// What producer keys do to notifications: publish (create or revise by key), update, resolve,
// expire, complete a request, and receive the persons' action invocations. Input types are
// checked for shape and enums here; domain/validation.ts checks everything else.
import { requireProducer } from "../../service/producer-rights.ts";
import { builder } from "./builder.ts";
import {
  ActionKindEnum,
  DisplayFormatEnum,
  NotificationScopeEnum,
  PresentationEnum,
  RetentionPolicyEnum,
  SeverityEnum,
  TriggerTypeEnum,
  VariantEnum,
} from "./enums.ts";
import { asResult, PublishNotificationResult, ResolveNotificationResult } from "./errors.ts";
import { FormFieldInput } from "./forms.ts";

// ---- inputs ----------------------------------------------------------------------------

export const SourceInput = builder.inputType("SourceInput", {
  fields: (t) => ({ plugin: t.string({ required: true }), subsystem: t.string({ required: false }) }),
});

export const DisplayInput = builder.inputType("DisplayInput", {
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

export const ActionInput = builder.inputType("ActionInput", {
  fields: (t) => ({
    kind: t.field({ type: ActionKindEnum, required: true }),
    id: t.string({ required: true }),
    label: t.string({ required: true }),
    url: t.string({ required: false }),
    text: t.string({ required: false }),
    actionId: t.string({ required: false }),
    fixedParams: t.field({ type: "JSON", required: false }),
    assetId: t.string({ required: false }),
    form: t.field({ type: [FormFieldInput], required: false, description: "RUN_ACTION: fields the person fills in before it runs." }),
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
    data: t.field({
      type: "JSON",
      required: false,
      description: "Your own data for your clients (any JSON, at most 16 KiB serialized); kept by patches that leave it out, cleared by null.",
    }),
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

export const NotificationPatchTargetInput = builder.inputType("NotificationPatchTarget", {
  description: "Names the active occurrence of a key, as publishNotification does, instead of its id.",
  fields: (t) => ({
    scope: t.field({ type: NotificationScopeEnum, required: true }),
    personId: t.id({ required: false, description: "PERSON scope: the addressee." }),
    sessionId: t.id({ required: false, description: "SESSION scope: a Herald Session.id." }),
    key: t.string({ required: true }),
  }),
});

export const ResolutionInput = builder.inputType("ResolutionInput", {
  fields: (t) => ({ actionId: t.string({ required: false }), values: t.field({ type: "JSON", required: false }) }),
});

// ---- mutations -------------------------------------------------------------------------

const operationIdArg = { required: false, description: "When given, must be the active operation occurrence." } as const;

builder.mutationFields((t) => ({
  publishNotification: t.field({
    type: PublishNotificationResult,
    args: { input: t.arg({ type: PublishNotificationInput, required: true }) },
    description: "Creates a notification, or a new revision of the active one with the same scope target and key.",
    resolve: (_root, args, ctx) => {
      const producer = requireProducer(ctx.caller, "publishNotification");
      return asResult(PublishNotificationResult, async () => {
        await ctx.services.assets.assertUsable(producer.credentialId, args.input.actions, "actions");
        return ctx.services.notifications.publish(args.input, producer.plugin);
      });
    },
  }),

  updateNotification: t.field({
    type: PublishNotificationResult,
    args: {
      id: t.arg.id({ required: true }),
      patch: t.arg({ type: NotificationPatchInput, required: true }),
    },
    description: "Merges the patch over the current content as a new revision.",
    resolve: (_root, args, ctx) => {
      const producer = requireProducer(ctx.caller, "updateNotification");
      return asResult(PublishNotificationResult, async () => {
        await ctx.services.assets.assertUsable(producer.credentialId, args.patch.actions, "patch.actions");
        return ctx.services.notifications.update(String(args.id), args.patch, producer.plugin);
      });
    },
  }),

  // Its own field, not an optional argument of updateNotification: the contract fixes that one's `id: ID!`.
  updateNotificationByKey: t.field({
    type: PublishNotificationResult,
    args: {
      target: t.arg({ type: NotificationPatchTargetInput, required: true, description: "The scope target and key whose active occurrence is patched." }),
      patch: t.arg({ type: NotificationPatchInput, required: true }),
    },
    description:
      "Merges the patch over the active occurrence of a key as a new revision, so a heartbeat needs no id. When the previous occurrence has ended, publishes a new occurrence over its content; with none at all, starts one if the patch has a title and a source, else NotFoundError.",
    resolve: (_root, args, ctx) => {
      const producer = requireProducer(ctx.caller, "updateNotificationByKey");
      return asResult(PublishNotificationResult, async () => {
        await ctx.services.assets.assertUsable(producer.credentialId, args.patch.actions, "patch.actions");
        return ctx.services.notifications.updateByKey(args.target, args.patch, producer.plugin);
      });
    },
  }),

  resolveNotification: t.field({
    type: ResolveNotificationResult,
    args: {
      id: t.arg.id({ required: true }),
      resolution: t.arg({ type: ResolutionInput, required: false }),
      operationId: t.arg.string(operationIdArg),
    },
    resolve: (_root, args, ctx) => {
      const { plugin } = requireProducer(ctx.caller, "resolveNotification");
      return asResult(ResolveNotificationResult, () => ctx.services.notifications.resolve(String(args.id), args.resolution, args.operationId ?? null, plugin));
    },
  }),

  expireNotification: t.field({
    type: ResolveNotificationResult,
    args: {
      id: t.arg.id({ required: true }),
      reason: t.arg.string({ required: false }),
      operationId: t.arg.string(operationIdArg),
    },
    resolve: (_root, args, ctx) => {
      const { plugin } = requireProducer(ctx.caller, "expireNotification");
      return asResult(ResolveNotificationResult, () => ctx.services.notifications.expire(String(args.id), args.reason, args.operationId ?? null, plugin));
    },
  }),

  completeRequest: t.int({
    args: { requestId: t.arg.string({ required: true }) },
    description: "Expires the active UNTIL_REQUEST_COMPLETE notifications of that request; returns how many.",
    resolve: (_root, args, ctx) => {
      const { plugin } = requireProducer(ctx.caller, "completeRequest");
      return ctx.services.notifications.completeRequest(args.requestId, plugin);
    },
  }),
}));
