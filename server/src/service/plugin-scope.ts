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
 * must be its own plugin's, or another plugin's notification would change hands.
 */
export function assertKeyFree(scope: PluginScope, existing: NotificationRecord | null): void {
  if (existing && !ownedBy(scope, existing.source.plugin)) {
    throw new ValidationError("key", "key: the active notification with this key and target belongs to another plugin");
  }
}
