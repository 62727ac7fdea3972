// What a producer key may do, decided here once for every transport (GraphQL and the /api/v1
// JSON API generated from it). An admin key may do everything; a key bound to a plugin (the one a
// hook or an agent holds) may do only what a plugin needs, and only to that plugin's own records:
// the services narrow each "plugin" operation to `caller.plugin`. docs/api.md ("Authorization")
// mirrors this table.
import { ForbiddenError, UnauthenticatedError } from "../domain/errors.ts";
import type { Caller, ProducerCaller } from "./caller.ts";

/** "plugin": bound keys too, narrowed to their plugin; "admin": admin keys only. */
export type ProducerRight = "plugin" | "admin";

export const producerRights = {
  publishNotification: "plugin",
  publishObservation: "plugin",
  updateNotification: "plugin",
  updateNotificationByKey: "plugin",
  resolveNotification: "plugin",
  expireNotification: "plugin",
  completeRequest: "plugin",
  actionInvocations: "plugin",
  acknowledgeActionInvocation: "plugin",
  emitEvent: "plugin",
  reportExchange: "plugin",
  // Reading a notification back by id: a bound key sees its own plugin's only; an admin key is
  // refused as from every person-only read (transport/graphql/notification.ts).
  notification: "plugin",
  // Only sessions of the harness named like the key's plugin (DirectoryService.createSession).
  createSession: "plugin",
  uploadAsset: "plugin",
  createPerson: "admin",
  createEngagement: "admin",
  addEngagementMember: "admin",
  rememberFact: "admin",
  issuePersonToken: "admin",
  issueSignInCode: "admin",
  personPreferences: "admin",
  setPersonQuietMode: "admin",
} as const satisfies Record<string, ProducerRight>;

export type ProducerOperation = keyof typeof producerRights;

/** A producer key with the right to `operation`; FORBIDDEN for a person token or a bound key on an admin operation. */
export function requireProducer(caller: Caller | null, operation: ProducerOperation): ProducerCaller {
  if (!caller) throw new UnauthenticatedError("Authenticate with a producer key");
  if (caller.kind !== "producer") throw new ForbiddenError("This operation needs a producer key; a person token was given");
  if (producerRights[operation] === "admin" && caller.plugin !== null) {
    throw new ForbiddenError(`${operation} needs an admin producer key; this key is bound to plugin "${caller.plugin}"`);
  }
  return caller;
}

/** The plugin a caller's changes and reads are narrowed to (null: any plugin). */
export type PluginScope = string | null;

/** A record of another plugin is, for a bound key, a record that does not exist. */
export function ownedBy(scope: PluginScope, plugin: string): boolean {
  return scope === null || scope === plugin;
}

/** The plugin filter a read runs with: a bound key reads its own plugin, and asking for another is FORBIDDEN. */
export function pluginFilter(scope: PluginScope, asked: string | null | undefined): string | null {
  if (scope === null) return asked ?? null;
  if (asked != null && asked !== scope) throw new ForbiddenError(`This producer key may only read plugin "${scope}"`);
  return scope;
}
