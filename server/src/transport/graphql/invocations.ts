// Action invocations: a person runs a RUN_ACTION follow-up (invokeNotificationAction), producers
// receive it live or by polling, with cursors to resume (actionInvocations), and acknowledge it
// (acknowledgeActionInvocation); the person reads the state on Notification.lastInvocation.
// Protocol: docs/event-stream.md, "Action invocations".
import { InvocationOutcomes, type InvocationRecord, InvocationStates } from "../../domain/invocation.ts";
import type { InvocationPage } from "../../service/invocation-service.ts";
import { requirePerson } from "../../service/auth-service.ts";
import { pluginFilter, requireProducer } from "../../service/producer-rights.ts";
import { builder } from "./builder.ts";
import { PresentationEnum, VariantEnum } from "./enums.ts";
import { batchedLoad, endedOr } from "./context.ts";
import { asResult, resultUnion } from "./errors.ts";
import { DisplayRef, FollowUpActionRef, NotificationRef } from "./notification.ts";
import type { ReadsOf } from "./notification-selection.ts";
import { ActionInput, DisplayInput } from "./producer.ts";

const InvocationStateEnum = builder.enumType("ActionInvocationState", { values: InvocationStates });
const InvocationOutcomeEnum = builder.enumType("ActionInvocationOutcome", { values: InvocationOutcomes });

export const ActionInvocationRef = builder.objectRef<InvocationRecord>("ActionInvocation").implement({
  description: "A person ran a RUN_ACTION follow-up of a notification. Stored until its producer acknowledges it.",
  fields: (t) => ({
    id: t.exposeID("id"),
    cursor: t.string({
      description: "Opaque position in the invocation sequence: pass it as `after` to resume behind this invocation.",
      resolve: (i, _args, ctx) => ctx.services.invocations.cursorOf(i),
    }),
    notificationId: t.exposeID("notificationId"),
    notificationKey: t.exposeString("notificationKey"),
    actionId: t.exposeString("actionId", { description: "The follow-up's id within the notification." }),
    targetActionId: t.exposeString("targetActionId", { description: "The producer action it asks to run." }),
    fixedParams: t.expose("fixedParams", {
      type: "JSON",
      nullable: true,
      description: 'The follow-up\'s fixedParams, with every "$form.<field>" entry replaced by the submitted value.',
    }),
    values: t.expose("values", { type: "JSON", nullable: true, description: "What the person submitted (a form's values, checked)." }),
    personId: t.exposeID("personId"),
    plugin: t.exposeString("plugin", { description: "The notification's source plugin." }),
    state: t.expose("state", { type: InvocationStateEnum }),
    // Not "message": beside a failure's `message: String!` in one result union the two would not merge.
    outcomeMessage: t.exposeString("message", { nullable: true, description: "The producer's word on the outcome (acknowledgeActionInvocation's message)." }),
    presentation: t.expose("presentation", {
      type: PresentationEnum,
      description: "The notification's presentation when it was invoked: a response (an update or a new notification) keeps it.",
    }),
    variant: t.expose("variant", { type: VariantEnum, description: "The notification's variant when it was invoked, for the same reason." }),
    display: t.expose("display", {
      type: DisplayRef,
      nullable: true,
      description: "The acknowledgement's direct display (presentation MODAL unless the producer chose): shown to the person once, not a notification.",
    }),
    actions: t.field({
      type: [FollowUpActionRef],
      description:
        "The direct display's follow-ups (empty without a display), so an answer can ask the next question: run one with invokeNotificationAction(invocationId: this id).",
      resolve: (i) => i.displayActions,
    }),
    uiEffects: t.expose("uiEffects", {
      type: "JSON",
      nullable: true,
      description: "The acknowledgement's refresh effects (the fields of Notification.uiEffects), applied once by the page that ran the action.",
    }),
    invokedAt: t.expose("createdAt", { type: "DateTime" }),
    acknowledgedAt: t.expose("acknowledgedAt", { type: "DateTime", nullable: true }),
  }),
});

const ActionInvocationPageRef = builder.objectRef<InvocationPage>("ActionInvocationPage").implement({
  fields: (t) => ({
    items: t.field({ type: [ActionInvocationRef], resolve: (p) => p.items }),
    cursor: t.exposeString("cursor", { description: "Pass as `after` on the next poll (moves forward even when items is empty)." }),
    hasMore: t.exposeBoolean("hasMore"),
  }),
});

const AcknowledgeActionInvocationResult = resultUnion<InvocationRecord>("AcknowledgeActionInvocationResult", () => ActionInvocationRef, [
  "NotFoundError",
  "ValidationError",
]);

builder.objectField(NotificationRef, "lastInvocation", (t) =>
  t.field({
    type: ActionInvocationRef,
    nullable: true,
    description: "The latest RUN_ACTION invocation of this notification by the caller (a producer: by anyone), with its state.",
    resolve: (n: ReadsOf<"lastInvocation">, _args, ctx) => {
      const personId = ctx.caller?.kind === "person" ? ctx.caller.personId : null;
      return batchedLoad(ctx, `lastInvocation:${personId ?? ""}`, (ids) => ctx.services.invocations.latestOf(ids, personId), n.id);
    },
  }),
);

const afterArg = { required: false, description: "An invocation cursor: everything after it. Without it: every PENDING invocation first." } as const;
const pluginArg = { required: false, description: "Only invocations of this plugin's notifications." } as const;

builder.queryFields((t) => ({
  actionInvocations: t.field({
    type: ActionInvocationPageRef,
    args: { plugin: t.arg.string(pluginArg), after: t.arg.string(afterArg), first: t.arg.int({ required: false }) },
    description: "For polling producers: invocations oldest first, at most `first` (default 20, at most 100).",
    resolve: (_root, args, ctx) => {
      const { plugin } = requireProducer(ctx.caller, "actionInvocations");
      return ctx.services.invocations.page(pluginFilter(plugin, args.plugin), args.after, args.first);
    },
  }),
}));

builder.mutationFields((t) => ({
  invokeNotificationAction: t.field({
    type: ActionInvocationRef,
    args: {
      id: t.arg.id({ required: true }),
      actionId: t.arg.string({ required: true }),
      values: t.arg({ type: "JSON", required: false }),
      invocationId: t.arg.id({
        required: false,
        description: "Runs a follow-up of this earlier invocation's direct display (the caller's own, of this notification) instead of the notification's.",
      }),
    },
    description: "Runs a RUN_ACTION follow-up (values: its form's fields). Stored PENDING until the producer acknowledges it.",
    resolve: (_root, args, ctx) =>
      ctx.services.invocations.invoke(
        requirePerson(ctx.caller).personId,
        String(args.id),
        args.actionId,
        args.values,
        null,
        args.invocationId === null || args.invocationId === undefined ? null : String(args.invocationId),
      ),
  }),

  acknowledgeActionInvocation: t.field({
    type: AcknowledgeActionInvocationResult,
    args: {
      id: t.arg.id({ required: true }),
      outcome: t.arg({ type: InvocationOutcomeEnum, required: true }),
      message: t.arg.string({ required: false }),
      display: t.arg({ type: DisplayInput, required: false, description: "A direct display of the result for the person; presentation defaults to MODAL." }),
      actions: t.arg({
        type: [ActionInput],
        required: false,
        description: "Follow-ups on the direct display (needs display), as a notification's: a RUN_ACTION with a form asks the next question.",
      }),
      uiEffects: t.arg({ type: "JSON", required: false, description: "Refresh effects for the page that ran the action (as Notification.uiEffects)." }),
    },
    description:
      "A producer reports how the invocation went, optionally with a direct display and refresh effects. Repeating the same outcome is a no-op; another outcome afterwards is a ValidationError.",
    resolve: (_root, args, ctx) => {
      const { plugin } = requireProducer(ctx.caller, "acknowledgeActionInvocation");
      const response = { message: args.message, display: args.display, actions: args.actions, uiEffects: args.uiEffects };
      return asResult(AcknowledgeActionInvocationResult, () => ctx.services.invocations.acknowledge(String(args.id), args.outcome, response, plugin));
    },
  }),
}));

builder.subscriptionFields((t) => ({
  actionInvocations: t.field({
    type: ActionInvocationRef,
    args: { plugin: t.arg.string(pluginArg), after: t.arg.string(afterArg) },
    description: "Invocations a producer missed (from storage), then live ones, with no gap or duplicate at the seam.",
    subscribe: (_root, args, ctx) => {
      const caller = requireProducer(ctx.caller, "actionInvocations");
      const plugin = pluginFilter(caller.plugin, args.plugin);
      const after = ctx.services.invocations.decodeCursor(args.after);
      return ctx.services.realtime.producerStream(caller, () => ctx.services.realtime.invocationEvents(plugin, after));
    },
    resolve: (invocation) => endedOr(invocation),
  }),
}));
