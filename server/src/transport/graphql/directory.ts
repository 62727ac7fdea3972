// Persons, sessions, engagements and remembered facts: the people and places notifications are
// addressed to. Producers manage them; a person reads themself, their preferences and their
// own sessions.
import { requireCaller, requirePerson } from "../../service/auth-service.ts";
import { requireProducer } from "../../service/producer-rights.ts";
import type { PluginMute, Preferences, QuietHours } from "../../domain/preferences.ts";
import { builder } from "./builder.ts";
import { SeverityEnum } from "./enums.ts";

export interface PersonShape {
  id: string;
  name: string;
  quietMode: boolean;
  createdAt: Date;
}
export interface SessionShape {
  id: string;
  harness: string;
  nativeSessionId: string;
  ownerPersonId: string;
  label: string;
  completionId: string;
  sourceGeneration: bigint;
  labelGeneration: bigint;
}
export interface EngagementShape {
  id: string;
  name: string;
  operatorPersonId: string;
}

export const PreferencesRef = builder.objectRef<Preferences>("Preferences").implement({
  fields: (t) => ({
    quietMode: t.exposeBoolean("quietMode", {
      description: "While on, new notifications are stored and listed but not pushed live.",
    }),
    mutedPlugins: t.stringList({
      description: "Source plugins muted now (the plugins of `mutes`): their new notifications are stored and listed but never pushed live.",
      resolve: (p, _args, ctx) => ctx.services.directory.mutesInForce(p).map((mute) => mute.plugin),
    }),
    mutes: t.field({
      type: [PluginMuteRef],
      description: "The mutes in force now, each with when it ends; one that has ended is no longer listed (or applied).",
      resolve: (p, _args, ctx) => ctx.services.directory.mutesInForce(p),
    }),
    severityFloor: t.expose("severityFloor", {
      type: SeverityEnum,
      description: "Notifications below this severity (INFO < SUCCESS < WARNING < ERROR) are stored and listed but never pushed live.",
    }),
    quietHours: t.field({ type: QuietHoursRef, nullable: true, resolve: (p) => p.quietHours }),
  }),
});

const PluginMuteRef = builder.objectRef<PluginMute>("PluginMute").implement({
  description: "A muted source plugin: its new notifications are stored and listed but never pushed live, nor sent to channels.",
  fields: (t) => ({
    plugin: t.exposeString("plugin"),
    until: t.expose("until", { type: "DateTime", nullable: true, description: "When the mute ends by itself; null: until unmuted." }),
  }),
});

const QuietHoursRef = builder.objectRef<QuietHours>("QuietHours").implement({
  description: "A daily schedule during which new notifications are held, as in quiet mode, and released when it ends.",
  fields: (t) => ({
    start: t.exposeString("start", { description: 'Local time "HH:MM" (24 h) it starts.' }),
    end: t.exposeString("end", { description: 'Local time "HH:MM" it ends; before start: it spans midnight.' }),
    timeZone: t.exposeString("timeZone", { description: "IANA time zone the times are read in, e.g. Europe/Berlin." }),
    allowErrors: t.exposeBoolean("allowErrors", { description: "ERROR notifications are pushed during quiet hours." }),
  }),
});

const QuietHoursInput = builder.inputType("QuietHoursInput", {
  fields: (t) => ({
    start: t.string({ required: true, description: '"HH:MM", 24 h.' }),
    end: t.string({ required: true, description: '"HH:MM", 24 h; before start: spans midnight; must differ from start.' }),
    timeZone: t.string({ required: true, description: "An IANA time zone, e.g. Europe/Berlin." }),
    allowErrors: t.boolean({ required: false, defaultValue: true }),
  }),
});

const PreferencesInput = builder.inputType("PreferencesInput", {
  description: "Given fields replace the current ones; absent ones are kept. quietHours: null removes the schedule.",
  fields: (t) => ({
    quietMode: t.boolean({ required: false }),
    mutedPlugins: t.stringList({
      required: false,
      description:
        "The whole list of plugins muted now (at most 100); [] unmutes all. A listed plugin already muted keeps its end; a new one is muted until unmuted.",
    }),
    severityFloor: t.field({ type: SeverityEnum, required: false }),
    quietHours: t.field({ type: QuietHoursInput, required: false }),
  }),
});

export const PersonRef = builder.objectRef<PersonShape>("Person").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    preferences: t.field({ type: PreferencesRef, resolve: (p, _args, ctx) => ctx.services.directory.preferences(p.id) }),
  }),
});

export const SessionRef = builder.objectRef<SessionShape>("Session").implement({
  description: "One agent session of a harness, owned by one person.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "Herald's id, used as PublishNotificationInput.sessionId." }),
    harness: t.exposeString("harness"),
    sessionId: t.exposeString("nativeSessionId", { description: "The harness's own session id." }),
    ownerPersonId: t.exposeID("ownerPersonId"),
    label: t.exposeString("label"),
    completionId: t.exposeString("completionId"),
    // Decimal strings keep the full uint64 range exact for JavaScript consumers.
    sourceGeneration: t.string({ resolve: (s) => s.sourceGeneration.toString() }),
    labelGeneration: t.string({ resolve: (s) => s.labelGeneration.toString() }),
  }),
});

export const EngagementRef = builder.objectRef<EngagementShape>("Engagement").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    operatorPersonId: t.exposeID("operatorPersonId"),
  }),
});

export const EngagementMemberRef = builder.objectRef<{ engagementId: string; personId: string; role: string }>("EngagementMember").implement({
  fields: (t) => ({
    engagementId: t.exposeID("engagementId"),
    personId: t.exposeID("personId"),
    role: t.exposeString("role"),
  }),
});

export const RememberedFactRef = builder.objectRef<{ id: string; personId: string; content: string; createdAt: Date }>("RememberedFact").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    personId: t.exposeID("personId"),
    content: t.exposeString("content"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

// ---- inputs ----------------------------------------------------------------------------

export const CreatePersonInput = builder.inputType("CreatePersonInput", {
  fields: (t) => ({ name: t.string({ required: true }) }),
});

export const CreateSessionInput = builder.inputType("CreateSessionInput", {
  fields: (t) => ({
    harness: t.string({ required: true }),
    sessionId: t.string({ required: true, description: "The harness's own session id." }),
    ownerPersonId: t.id({ required: true }),
  }),
});

export const CreateEngagementInput = builder.inputType("CreateEngagementInput", {
  fields: (t) => ({ name: t.string({ required: true }), operatorPersonId: t.id({ required: true }) }),
});

export const AddEngagementMemberInput = builder.inputType("AddEngagementMemberInput", {
  fields: (t) => ({ engagementId: t.id({ required: true }), personId: t.id({ required: true }), role: t.string({ required: false }) }),
});

export const RememberFactInput = builder.inputType("RememberFactInput", {
  fields: (t) => ({
    personId: t.id({ required: true }),
    content: t.string({ required: true }),
    engagementId: t.id({ required: false, description: "The engagement the fact is about: remembering it counts as activity there." }),
  }),
});

// ---- reads -----------------------------------------------------------------------------

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

  session: t.field({
    type: SessionRef,
    nullable: true,
    args: { harness: t.arg.string({ required: true }), sessionId: t.arg.string({ required: true }) },
    description:
      "Persons see only their own sessions; admin producer keys any; a key bound to a plugin only its own harness's (null for another's, as for an absent one).",
    resolve: (_root, args, ctx) => {
      const caller = requireCaller(ctx.caller);
      const viewer = caller.kind === "person" ? caller.personId : null;
      const scope = caller.kind === "producer" ? caller.plugin : null;
      return ctx.services.directory.findSession(args.harness, args.sessionId, viewer, scope);
    },
  }),

  // A page about one session or engagement can name it even when it holds no notification.
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

// ---- changes ---------------------------------------------------------------------------

builder.mutationFields((t) => ({
  setQuietMode: t.field({
    type: PreferencesRef,
    args: { enabled: t.arg.boolean({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const person = await ctx.services.directory.setQuietMode(requirePerson(ctx.caller).personId, args.enabled);
      return ctx.services.directory.preferences(person.id);
    },
  }),

  updatePreferences: t.field({
    type: PreferencesRef,
    args: { input: t.arg({ type: PreferencesInput, required: true }) },
    description: "The caller's reader controls: muted plugins, severity floor, quiet hours (and quiet mode). Bad input is a VALIDATION_ERROR naming the field.",
    resolve: (_root, args, ctx) => ctx.services.directory.updatePreferences(requirePerson(ctx.caller).personId, args.input),
  }),

  mutePlugin: t.field({
    type: PreferencesRef,
    args: {
      plugin: t.arg.string({ required: true }),
      until: t.arg({ type: "DateTime", required: false, description: "When the mute ends by itself (in the future); absent or null: until unmuted." }),
    },
    description:
      "Mutes a source plugin for the caller, replacing a mute of it already set; at most 100 plugins muted. Bad input is a VALIDATION_ERROR naming the field.",
    resolve: (_root, args, ctx) => ctx.services.directory.mutePlugin(requirePerson(ctx.caller).personId, args.plugin, args.until ?? null),
  }),

  unmutePlugin: t.field({
    type: PreferencesRef,
    args: { plugin: t.arg.string({ required: true }) },
    description: "Ends the caller's mute of a source plugin; not muted: nothing changes.",
    resolve: (_root, args, ctx) => ctx.services.directory.unmutePlugin(requirePerson(ctx.caller).personId, args.plugin),
  }),

  createPerson: t.field({
    type: PersonRef,
    args: { input: t.arg({ type: CreatePersonInput, required: true }) },
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller, "createPerson");
      return ctx.services.directory.createPerson(args.input);
    },
  }),

  createSession: t.field({
    type: SessionRef,
    args: { input: t.arg({ type: CreateSessionInput, required: true }) },
    resolve: (_root, args, ctx) => {
      const caller = requireProducer(ctx.caller, "createSession");
      return ctx.services.directory.createSession({ ...args.input, ownerPersonId: String(args.input.ownerPersonId) }, "ownerPersonId", caller.plugin);
    },
  }),

  createEngagement: t.field({
    type: EngagementRef,
    args: { input: t.arg({ type: CreateEngagementInput, required: true }) },
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller, "createEngagement");
      return ctx.services.directory.createEngagement({ ...args.input, operatorPersonId: String(args.input.operatorPersonId) });
    },
  }),

  addEngagementMember: t.field({
    type: EngagementMemberRef,
    args: { input: t.arg({ type: AddEngagementMemberInput, required: true }) },
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller, "addEngagementMember");
      return ctx.services.directory.addEngagementMember({
        engagementId: String(args.input.engagementId),
        personId: String(args.input.personId),
        role: args.input.role,
      });
    },
  }),

  rememberFact: t.field({
    type: RememberedFactRef,
    args: { input: t.arg({ type: RememberFactInput, required: true }) },
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller, "rememberFact");
      return ctx.services.directory.rememberFact({
        personId: String(args.input.personId),
        content: args.input.content,
        engagementId: args.input.engagementId ? String(args.input.engagementId) : null,
      });
    },
  }),
}));
