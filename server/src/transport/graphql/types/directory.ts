// Persons, sessions and engagements as the API shows them.
import { builder } from "../builder.ts";

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

export const PreferencesRef = builder.objectRef<{ quietMode: boolean }>("Preferences").implement({
  fields: (t) => ({
    quietMode: t.exposeBoolean("quietMode", {
      description: "While on, new notifications are stored and listed but not pushed live.",
    }),
  }),
});

export const PersonRef = builder.objectRef<PersonShape>("Person").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    preferences: t.field({ type: PreferencesRef, resolve: (p) => ({ quietMode: p.quietMode }) }),
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

export const EngagementMemberRef = builder
  .objectRef<{ engagementId: string; personId: string; role: string }>("EngagementMember")
  .implement({
    fields: (t) => ({
      engagementId: t.exposeID("engagementId"),
      personId: t.exposeID("personId"),
      role: t.exposeString("role"),
    }),
  });

export const RememberedFactRef = builder
  .objectRef<{ id: string; personId: string; content: string; createdAt: Date }>("RememberedFact")
  .implement({
    fields: (t) => ({
      id: t.exposeID("id"),
      personId: t.exposeID("personId"),
      content: t.exposeString("content"),
      createdAt: t.expose("createdAt", { type: "DateTime" }),
    }),
  });

export const IssuedCredentialRef = builder
  .objectRef<{ id: string; kind: string; secret: string }>("IssuedCredential")
  .implement({
    description: "A new credential. The token is shown only here, once.",
    fields: (t) => ({
      id: t.exposeID("id"),
      kind: t.exposeString("kind"),
      token: t.exposeString("secret"),
    }),
  });

export const SignInCodeRef = builder.objectRef<{ code: string; expiresAt: Date }>("SignInCode").implement({
  description: "A one-time sign-in code. Shown only here.",
  fields: (t) => ({
    code: t.exposeString("code"),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
  }),
});
