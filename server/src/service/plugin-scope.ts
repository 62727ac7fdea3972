// How a producer key bound to one plugin sees notifications: its own plugin's records exist,
// every other plugin's record is as good as absent (NotFoundError, so it cannot probe), and what
// it publishes must name its plugin. Pure checks; NotificationService applies them.
import { ValidationError } from "../domain/errors.ts";
import type { NotificationRecord } from "../domain/notification.ts";
import { ownedBy, type PluginScope } from "./producer-rights.ts";

/** The record if the scope may see it, else null (the caller answers as for a missing one). */
export function ownOrNone(scope: PluginScope, record: NotificationRecord | null): NotificationRecord | null {
  return record && ownedBy(scope, record.source.plugin) ? record : null;
}

/** Input naming another plugin than the key's own is refused, naming the field. */
export function assertOwnPlugin(scope: PluginScope, plugin: string, field: string): void {
  if (!ownedBy(scope, plugin)) throw new ValidationError(field, `${field}: this producer key may only use plugin "${scope}"`);
}

/**
 * A keyed publish would revise the active occurrence in place; for a bound key that occurrence
 * must be its own plugin's, or another plugin's notification would change hands. The refusal
 * names neither the other plugin nor that one holds the key: a bound key learns only that this
 * key cannot be its own now, whoever holds it (docs/api.md, "Credentials").
 */
export function assertKeyFree(scope: PluginScope, existing: NotificationRecord | null): void {
  if (existing && !ownedBy(scope, existing.source.plugin)) {
    throw new ValidationError("key", "key: cannot be published with this producer key for this target; use another key");
  }
}

/** A session a bound key may address or read: its own harness's (another's is as good as absent). */
export function sessionVisible(scope: PluginScope, session: { harness: string } | null): boolean {
  return session !== null && ownedBy(scope, session.harness);
}
