// Channels: how a person is reached away from the dashboard (docs/channels.md). A person lists,
// registers, re-rules, tests and removes their own channels, and reads the deliveries of the
// notifications they see. Secrets go out once, in addWebhookChannel's answer, and never again.
import { type Channel, ChannelKinds, type ChannelDelivery, DeliveryStatuses } from "../../domain/channels.ts";
import { NotFoundError } from "../../domain/errors.ts";
import { requirePerson } from "../../service/auth-service.ts";
import { builder } from "./builder.ts";
import type { GraphQLContext } from "./context.ts";
import { PersonRef } from "./directory.ts";
import { NotificationScopeEnum, SeverityEnum } from "./enums.ts";
import { asResult, resultUnion } from "./errors.ts";
import { NotificationRef } from "./notification.ts";
import type { ReadsOf } from "./notification-selection.ts";

export const ChannelKindEnum = builder.enumType("ChannelKind", {
  values: ChannelKinds,
  description: "WEB_PUSH: a browser push subscription; NTFY: an ntfy topic URL (JSON publish); WEBHOOK: an HTTPS endpoint signed per Standard Webhooks.",
});
export const DeliveryStatusEnum = builder.enumType("DeliveryStatus", {
  values: DeliveryStatuses,
  description: "PENDING: waiting (due later, held, or being retried); SENT; FAILED: given up; SKIPPED: not sent (seen, ended or replaced before it was due).",
});

const ChannelRulesRef = builder.objectRef<Channel["rules"]>("ChannelRules").implement({
  fields: (t) => ({
    minSeverity: t.expose("minSeverity", { type: SeverityEnum }),
    scopes: t.expose("scopes", { type: [NotificationScopeEnum] }),
    delaySeconds: t.exposeInt("delaySeconds", { description: "Sent this long after the revision, and only if still unseen and active then." }),
  }),
});

export const ChannelRef = builder.objectRef<Channel>("Channel").implement({
  description: "One of the person's ways to be reached away from the dashboard. Secrets (push keys, tokens) are never returned.",
  fields: (t) => ({
    id: t.exposeID("id"),
    kind: t.expose("kind", { type: ChannelKindEnum }),
    label: t.exposeString("label"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    failing: t.exposeBoolean("failing", { description: "The latest delivery failed for good (or ran out of attempts); a successful one clears it." }),
    lastDeliveryAt: t.expose("lastDeliveryAt", { type: "DateTime", nullable: true }),
    rules: t.field({ type: ChannelRulesRef, resolve: (c) => c.rules }),
  }),
});

export const ChannelDeliveryRef = builder.objectRef<ChannelDelivery>("ChannelDelivery").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    channel: t.field({
      type: ChannelRef,
      resolve: async (d, _args, ctx) => {
        const channel = await ctx.services.channels.findOwn(requirePerson(ctx.caller).personId, d.channelId);
        if (!channel) throw new NotFoundError("Channel not found");
        return channel;
      },
    }),
    notificationId: t.exposeID("notificationId", { nullable: true, description: "Null for a test send." }),
    revision: t.exposeInt("revision"),
    type: t.exposeString("type", { description: "notification.created, notification.updated or channel.test." }),
    status: t.expose("status", { type: DeliveryStatusEnum }),
    attempts: t.exposeInt("attempts"),
    lastError: t.exposeString("lastError", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    sentAt: t.expose("sentAt", { type: "DateTime", nullable: true }),
  }),
});

const WebhookChannelCreatedRef = builder.objectRef<{ channel: Channel; secret: string }>("WebhookChannelCreated").implement({
  fields: (t) => ({
    channel: t.field({ type: ChannelRef, resolve: (c) => c.channel }),
    secret: t.exposeString("secret", { description: "The whsec_ signing secret: shown this once, never again." }),
  }),
});

const AddChannelResult = resultUnion<Channel>("AddChannelResult", () => ChannelRef, ["ValidationError"]);
const AddWebhookChannelResult = resultUnion<{ channel: Channel; secret: string }>("AddWebhookChannelResult", () => WebhookChannelCreatedRef, [
  "ValidationError",
]);
const SetChannelRulesResult = resultUnion<Channel>("SetChannelRulesResult", () => ChannelRef, ["ValidationError", "NotFoundError"]);

const AddWebPushChannelInput = builder.inputType("AddWebPushChannelInput", {
  description: "A PushSubscription as the browser gives it: endpoint and its keys p256dh and auth (base64url).",
  fields: (t) => ({
    endpoint: t.string({ required: true }),
    p256dh: t.string({ required: true }),
    auth: t.string({ required: true }),
    label: t.string({ required: false }),
  }),
});

const AddNtfyChannelInput = builder.inputType("AddNtfyChannelInput", {
  fields: (t) => ({
    url: t.string({ required: true, description: "The full topic URL, e.g. https://ntfy.sh/my-topic." }),
    token: t.string({ required: false, description: "Sent as a bearer token; never returned." }),
    label: t.string({ required: false }),
  }),
});

const AddWebhookChannelInput = builder.inputType("AddWebhookChannelInput", {
  fields: (t) => ({ url: t.string({ required: true }), label: t.string({ required: false }) }),
});

const ChannelRulesInput = builder.inputType("ChannelRulesInput", {
  description: "Given fields replace the current ones; absent ones stay.",
  fields: (t) => ({
    minSeverity: t.field({ type: SeverityEnum, required: false }),
    scopes: t.field({ type: [NotificationScopeEnum], required: false }),
    delaySeconds: t.int({ required: false }),
  }),
});

// A Person is also returned to producers (createPerson, the producer HTTP API's routes select every
// field): a person's channels are answered to that person alone, and as empty to anyone else.
const viewerIs = (ctx: GraphQLContext, personId: string): boolean => ctx.caller?.kind === "person" && ctx.caller.personId === personId;

builder.objectField(PersonRef, "channels", (t) =>
  t.field({
    type: [ChannelRef],
    description: "The person's own channels (only the viewer's; empty for anyone else, producers included).",
    resolve: (person, _args, ctx) => (viewerIs(ctx, person.id) ? ctx.services.channels.list(person.id) : []),
  }),
);

builder.objectField(PersonRef, "recentDeliveries", (t) =>
  t.field({
    type: [ChannelDeliveryRef],
    args: { first: t.arg.int({ required: false, defaultValue: 20 }) },
    description: "The person's latest deliveries across their channels, newest first (at most 100; empty for anyone but the viewer).",
    resolve: (person, args, ctx) => (viewerIs(ctx, person.id) ? ctx.services.channels.recent(person.id, args.first ?? 20) : []),
  }),
);

builder.objectField(NotificationRef, "deliveries", (t) =>
  t.field({
    type: [ChannelDeliveryRef],
    description: "Where this notification went for the person reading it; empty for producers.",
    resolve: (record: ReadsOf<"deliveries">, _args, ctx) => {
      if (ctx.caller?.kind !== "person") return [];
      return ctx.services.channels.deliveriesOf(ctx.caller.personId, record.id);
    },
  }),
);

builder.queryFields((t) => ({
  webPushPublicKey: t.string({
    description: "The VAPID public key (base64url, uncompressed P-256) to subscribe a browser with.",
    resolve: (_root, _args, ctx) => {
      requirePerson(ctx.caller);
      return ctx.services.channels.webPushPublicKey;
    },
  }),
  channelDelivery: t.field({
    type: ChannelDeliveryRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    description: "One of the person's deliveries (e.g. a test send's progress); null when absent or not theirs.",
    resolve: (_root, args, ctx) => ctx.services.channels.delivery(requirePerson(ctx.caller).personId, String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  addWebPushChannel: t.field({
    type: AddChannelResult,
    args: { input: t.arg({ type: AddWebPushChannelInput, required: true }) },
    description: "Registers this browser's push subscription (the same endpoint again renews its keys).",
    resolve: (_root, args, ctx) => asResult(AddChannelResult, () => ctx.services.channels.addWebPush(requirePerson(ctx.caller).personId, args.input)),
  }),
  addNtfyChannel: t.field({
    type: AddChannelResult,
    args: { input: t.arg({ type: AddNtfyChannelInput, required: true }) },
    resolve: (_root, args, ctx) => asResult(AddChannelResult, () => ctx.services.channels.addNtfy(requirePerson(ctx.caller).personId, args.input)),
  }),
  addWebhookChannel: t.field({
    type: AddWebhookChannelResult,
    args: { input: t.arg({ type: AddWebhookChannelInput, required: true }) },
    description: "Registers a webhook; the answer carries its signing secret, shown once.",
    resolve: (_root, args, ctx) => asResult(AddWebhookChannelResult, () => ctx.services.channels.addWebhook(requirePerson(ctx.caller).personId, args.input)),
  }),
  setChannelRules: t.field({
    type: SetChannelRulesResult,
    args: { id: t.arg.id({ required: true }), rules: t.arg({ type: ChannelRulesInput, required: true }) },
    resolve: (_root, args, ctx) =>
      asResult(SetChannelRulesResult, () => ctx.services.channels.setRules(requirePerson(ctx.caller).personId, String(args.id), args.rules)),
  }),
  removeChannel: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    description: "True when one of the caller's channels was removed.",
    resolve: (_root, args, ctx) => ctx.services.channels.remove(requirePerson(ctx.caller).personId, String(args.id)),
  }),
  testChannel: t.field({
    type: ChannelDeliveryRef,
    args: { id: t.arg.id({ required: true }) },
    description: "Sends a channel.test payload now; the delivery record shows how it went (poll channelDelivery).",
    resolve: (_root, args, ctx) => ctx.services.channels.test(requirePerson(ctx.caller).personId, String(args.id)),
  }),
}));
