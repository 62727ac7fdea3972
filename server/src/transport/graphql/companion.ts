// The companion's controls: producers read and set a person's quiet mode (the companion turns
// it on when asked in conversation) and publish observations; persons follow their
// preferences live.
import { requirePerson } from "../../service/auth-service.ts";
import { requireProducer } from "../../service/producer-rights.ts";
import { builder } from "./builder.ts";
import { endedOr } from "./context.ts";
import { PreferencesRef } from "./directory.ts";
import { asResult, PublishNotificationResult } from "./errors.ts";
import { SourceInput } from "./producer.ts";

const PublishObservationInput = builder.inputType("PublishObservationInput", {
  description: "An OBSERVATION offering to remember a fact; Herald adds the “Remember this” and “Not now” follow-ups.",
  fields: (t) => ({
    personId: t.id({ required: true }),
    fact: t.string({ required: true, description: "What “Remember this” stores in the person's memory." }),
    title: t.string({ required: false }),
    body: t.string({ required: false }),
    key: t.string({ required: false, description: "Defaults to one derived from the fact: the same offer updates in place." }),
    engagementId: t.id({ required: false }),
    source: t.field({ type: SourceInput, required: true }),
  }),
});

builder.queryFields((t) => ({
  personPreferences: t.field({
    type: PreferencesRef,
    nullable: true,
    args: { personId: t.arg.id({ required: true }) },
    description: "A person's preferences, for producers. Null when there is no such person.",
    resolve: async (_root, args, ctx) => {
      requireProducer(ctx.caller, "personPreferences");
      const person = await ctx.services.directory.findPerson(String(args.personId));
      return person ? ctx.services.directory.preferences(person.id) : null;
    },
  }),
}));

builder.mutationFields((t) => ({
  setPersonQuietMode: t.field({
    type: PreferencesRef,
    args: { personId: t.arg.id({ required: true }), enabled: t.arg.boolean({ required: true }) },
    description: "Quiet mode for a person, set by a producer: the scanner skips them and new notifications are held, not pushed.",
    resolve: async (_root, args, ctx) => {
      requireProducer(ctx.caller, "setPersonQuietMode");
      const person = await ctx.services.directory.setQuietMode(String(args.personId), args.enabled);
      return ctx.services.directory.preferences(person.id);
    },
  }),

  publishObservation: t.field({
    type: PublishNotificationResult,
    args: { input: t.arg({ type: PublishObservationInput, required: true }) },
    resolve: (_root, args, ctx) => {
      const { plugin } = requireProducer(ctx.caller, "publishObservation");
      const { input } = args;
      return asResult(PublishNotificationResult, () =>
        ctx.services.notifications.publishObservation(
          {
            ...input,
            personId: String(input.personId),
            engagementId: input.engagementId ? String(input.engagementId) : null,
          },
          plugin,
        ),
      );
    },
  }),
}));

builder.subscriptionFields((t) => ({
  preferencesEvents: t.field({
    type: PreferencesRef,
    description: "The caller's preferences now, then after every change (quiet mode or reader controls set in any tab, device or by a producer).",
    subscribe: (_root, _args, ctx) => ctx.services.realtime.preferencesEvents(requirePerson(ctx.caller)),
    resolve: (preferences) => endedOr(preferences),
  }),
}));
