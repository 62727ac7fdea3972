// The server's VAPID key pair (RFC 8292): generated once and kept in the store, so browsers
// subscribed with its public key stay reachable across restarts and instances; or configured
// (HERALD_VAPID_PUBLIC_KEY / HERALD_VAPID_PRIVATE_KEY) for a deployment that manages its own.
import webpush from "web-push";
import type { SettingsStore } from "../../storage/server-state/settings-store.ts";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export async function vapidKeysOf(configured: VapidKeys | null, settings: SettingsStore): Promise<VapidKeys> {
  if (configured) return configured;
  const stored = await settings.getOrCreate("vapid-keys", () => JSON.stringify(webpush.generateVAPIDKeys()));
  const keys = JSON.parse(stored) as VapidKeys;
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}
