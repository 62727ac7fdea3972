// "This device" in Settings: a push subscription of this browser for Herald's Web Push channel.
// The browser's permission is asked only from the person's click (the caller's), and the
// subscription is made with Herald's VAPID public key, so only this Herald can push to it.
// Which channel this browser registered is remembered here (localStorage): Herald never returns a
// channel's endpoint, and the page has to know which card is "this device".
import { t } from "@herald/sdk/ui/i18n/pages.ts";

const STORAGE_KEY = "herald.this-device";

export interface SubscriptionKeys {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export function pushSupported(): boolean {
  return (
    typeof navigator !== "undefined" && "serviceWorker" in navigator && typeof window !== "undefined" && "PushManager" in window && "Notification" in window
  );
}

/** base64url (as Herald gives the VAPID key) to the bytes pushManager.subscribe() takes. */
export function base64UrlBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(value.length / 4) * 4, "=");
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameBytes(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/**
 * A browser whose push service cannot be reached (no internet, a blocked vendor host) may leave
 * subscribe() pending for good (Chromium does): the person is told after this long instead.
 */
const SUBSCRIBE_TIMEOUT_MS = 15_000;

function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(t.channels.device.noAnswer)), ms)));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The dashboard's service worker registration (SvelteKit registers it on every page load). */
async function registration(): Promise<ServiceWorkerRegistration> {
  return (await navigator.serviceWorker.getRegistration()) ?? navigator.serviceWorker.ready;
}

/**
 * Subscribes this browser with Herald's key (replacing a subscription made with another key) and
 * returns what addWebPushChannel needs. Permission must be granted already.
 */
export async function subscribe(publicKey: string): Promise<SubscriptionKeys> {
  const key = base64UrlBytes(publicKey);
  const reg = await registration();
  let subscription = await reg.pushManager.getSubscription();
  if (subscription && !sameBytes(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await withinTime(reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }), SUBSCRIBE_TIMEOUT_MS);
  const json = subscription.toJSON();
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) throw new Error("the subscription has no keys");
  return { endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth };
}

/** Ends this browser's subscription (when its channel is removed). */
export async function unsubscribe(): Promise<void> {
  const subscription = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
  await subscription?.unsubscribe();
}

/** The channel id this browser registered, if any. */
export function thisDeviceChannel(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function rememberThisDevice(channelId: string | null): void {
  try {
    if (channelId) localStorage.setItem(STORAGE_KEY, channelId);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage refused (private mode): the card is not marked, the channel works all the same
  }
}

/** "Chrome on Android": a name for the channel the person recognises in the list. */
export function browserName(): { browser: string | null; platform: string } {
  const data = (navigator as Navigator & { userAgentData?: { brands: { brand: string }[]; platform: string } }).userAgentData;
  const brand = data?.brands.map((b) => b.brand).find((b) => !/not.a.brand|chromium/i.test(b)) ?? (data ? "Chromium" : null);
  return { browser: brand, platform: data?.platform ?? "" };
}
