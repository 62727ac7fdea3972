// Write operations. Each checks the caller's kind and hands over to a service.
import { UnauthenticatedError } from "../../domain/errors.ts";
import { requirePerson, requireProducer } from "../../service/auth-service.ts";
import { builder } from "./builder.ts";
import { ActionInvocationRef } from "./types/action-invocation.ts";
import {
  EngagementMemberRef,
  EngagementRef,
  IssuedCredentialRef,
  PersonRef,
  SignInCodeRef,
  PreferencesRef,
  RememberedFactRef,
  SessionRef,
} from "./types/directory.ts";
import { NotificationFilterInput, NotificationPatchInput, PublishNotificationInput, ResolutionInput } from "./types/inputs.ts";
import { NotificationRef } from "./types/notification.ts";
import { asResult, DismissNotificationResult, PublishNotificationResult, ResolveNotificationResult } from "./types/results.ts";

const publishFailures = ["ValidationError", "OperationMismatchError", "NotFoundError", "NotificationTransitionError"] as const;
const resolveFailures = publishFailures;

// ---- persons ---------------------------------------------------------------------------

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

  dismissNotification: t.field({
    type: DismissNotificationResult,
    args: {
      id: t.arg.id({ required: true }),
      expectedRevision: t.arg.int({ required: false }),
      reason: t.arg.string({ required: false }),
    },
    resolve: (_root, args, ctx) => {
      const { personId } = requirePerson(ctx.caller);
      return asResult(
        () => ctx.services.notifications.dismiss(personId, String(args.id), args.expectedRevision ?? null, args.reason),
        ["RevisionConflictError", "NotificationTransitionError", "NotFoundError", "ValidationError"],
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

  invokeNotificationAction: t.field({
    type: ActionInvocationRef,
    args: { id: t.arg.id({ required: true }), actionId: t.arg.string({ required: true }), values: t.arg({ type: "JSON", required: false }) },
    description: "Runs a RUN_ACTION follow-up: its producer receives the invocation on actionInvocations.",
    resolve: (_root, args, ctx) =>
      ctx.services.notifications.invokeAction(requirePerson(ctx.caller).personId, String(args.id), args.actionId, args.values),
  }),

  setQuietMode: t.field({
    type: PreferencesRef,
    args: { enabled: t.arg.boolean({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const person = await ctx.services.directory.setQuietMode(requirePerson(ctx.caller).personId, args.enabled);
      return { quietMode: person.quietMode };
    },
  }),
}));

// ---- anyone holding a sign-in code ----------------------------------------------------

builder.mutationFields((t) => ({
  signOut: t.boolean({
    description:
      "Revokes the credential that sent this request (a dashboard's sign-out); its open streams end on every instance. False if it was already revoked.",
    resolve: (_root, _args, ctx) => {
      if (!ctx.caller) throw new UnauthenticatedError("Send the credential to revoke as Authorization: Bearer <credential>");
      return ctx.services.auth.revokeOwn(ctx.caller);
    },
  }),

  redeemSignInCode: t.field({
    type: IssuedCredentialRef,
    args: { code: t.arg.string({ required: true }) },
    description: "Exchanges a one-time sign-in code for a person token. Needs no credential.",
    resolve: (_root, args, ctx) => ctx.services.auth.redeemSignInCode(args.code),
  }),
}));

// ---- producers -------------------------------------------------------------------------

builder.mutationFields((t) => ({
  publishNotification: t.field({
    type: PublishNotificationResult,
    args: { input: t.arg({ type: PublishNotificationInput, required: true }) },
    description: "Creates a notification, or a new revision of the active one with the same scope target and key.",
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller);
      return asResult(() => ctx.services.notifications.publish(args.input), publishFailures);
    },
  }),

  updateNotification: t.field({
    type: PublishNotificationResult,
    args: { id: t.arg.id({ required: true }), patch: t.arg({ type: NotificationPatchInput, required: true }) },
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller);
      return asResult(() => ctx.services.notifications.update(String(args.id), args.patch), publishFailures);
    },
  }),

  resolveNotification: t.field({
    type: ResolveNotificationResult,
    args: {
      id: t.arg.id({ required: true }),
      resolution: t.arg({ type: ResolutionInput, required: false }),
      operationId: t.arg.string({ required: false, description: "When given, must be the active operation occurrence." }),
    },
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller);
      return asResult(
        () => ctx.services.notifications.resolve(String(args.id), args.resolution, args.operationId ?? null),
        resolveFailures,
      );
    },
  }),

  expireNotification: t.field({
    type: ResolveNotificationResult,
    args: {
      id: t.arg.id({ required: true }),
      reason: t.arg.string({ required: false }),
      operationId: t.arg.string({ required: false, description: "When given, must be the active operation occurrence." }),
    },
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller);
      return asResult(
        () => ctx.services.notifications.expire(String(args.id), args.reason, args.operationId ?? null),
        resolveFailures,
      );
    },
  }),

  completeRequest: t.int({
    args: { requestId: t.arg.string({ required: true }) },
    description: "Expires the active UNTIL_REQUEST_COMPLETE notifications of that request; returns how many.",
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller);
      return ctx.services.notifications.completeRequest(args.requestId);
    },
  }),

  createPerson: t.field({
    type: PersonRef,
    args: { input: t.arg({ type: builder.inputType("CreatePersonInput", { fields: (f) => ({ name: f.string({ required: true }) }) }), required: true }) },
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller);
      return ctx.services.directory.createPerson(args.input);
    },
  }),

  issuePersonToken: t.field({
    type: IssuedCredentialRef,
    args: { personId: t.arg.id({ required: true }), name: t.arg.string({ required: false }) },
    description: "A sign-in token for a person. The token is returned only here.",
    resolve: async (_root, args, ctx) => {
      requireProducer(ctx.caller);
      return ctx.services.auth.issuePersonToken(String(args.personId), args.name ?? undefined);
    },
  }),

  issueSignInCode: t.field({
    type: SignInCodeRef,
    args: { personId: t.arg.id({ required: true }) },
    description: "A one-time sign-in code for a person (valid 24 hours); the dashboard serves it at /signin/<code>.",
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller);
      return ctx.services.auth.issueSignInCode(String(args.personId));
    },
  }),

  createSession: t.field({
    type: SessionRef,
    args: {
      input: t.arg({
        type: builder.inputType("CreateSessionInput", {
          fields: (f) => ({
            harness: f.string({ required: true }),
            sessionId: f.string({ required: true, description: "The harness's own session id." }),
            ownerPersonId: f.id({ required: true }),
          }),
        }),
        required: true,
      }),
    },
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller);
      return ctx.services.directory.createSession({ ...args.input, ownerPersonId: String(args.input.ownerPersonId) });
    },
  }),

  createEngagement: t.field({
    type: EngagementRef,
    args: {
      input: t.arg({
        type: builder.inputType("CreateEngagementInput", {
          fields: (f) => ({ name: f.string({ required: true }), operatorPersonId: f.id({ required: true }) }),
        }),
        required: true,
      }),
    },
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller);
      return ctx.services.directory.createEngagement({ ...args.input, operatorPersonId: String(args.input.operatorPersonId) });
    },
  }),

  addEngagementMember: t.field({
    type: EngagementMemberRef,
    args: {
      input: t.arg({
        type: builder.inputType("AddEngagementMemberInput", {
          fields: (f) => ({ engagementId: f.id({ required: true }), personId: f.id({ required: true }), role: f.string({ required: false }) }),
        }),
        required: true,
      }),
    },
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller);
      return ctx.services.directory.addEngagementMember({
        engagementId: String(args.input.engagementId),
        personId: String(args.input.personId),
        role: args.input.role,
      });
    },
  }),

  rememberFact: t.field({
    type: RememberedFactRef,
    args: {
      input: t.arg({
        type: builder.inputType("RememberFactInput", {
          fields: (f) => ({ personId: f.id({ required: true }), content: f.string({ required: true }) }),
        }),
        required: true,
      }),
    },
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller);
      return ctx.services.directory.rememberFact({ personId: String(args.input.personId), content: args.input.content });
    },
  }),
}));
