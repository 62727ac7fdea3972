/// <reference types="@sveltejs/kit" />
/// <reference no-default-lib="true"/>
/// <reference lib="esnext" />
/// <reference lib="webworker" />
// The dashboard's service worker: shows Herald's Web Push messages while no dashboard tab is open
// (payload.ts) and answers clicks on them (respond.ts). It caches nothing: the dashboard is live
// or it is nothing, and a stale copy of it would show a stale inbox.
import { parsePayload, toShown } from "$lib/push/payload";
import { respondToClick, type WorkerScope } from "$lib/push/respond";

const sw = self as unknown as ServiceWorkerGlobalScope;

const scope: WorkerScope = {
  origin: sw.location.origin,
  clients: sw.clients,
  fetch: (input, init) => sw.fetch(input, init),
  showNotification: (title, options) => sw.registration.showNotification(title, options),
};

// A new worker takes over at once: it holds no state an older one could still need.
sw.addEventListener("install", () => void sw.skipWaiting());
sw.addEventListener("activate", (event) => event.waitUntil(sw.clients.claim()));

sw.addEventListener("push", (event) => {
  let raw: unknown = null;
  try {
    raw = event.data?.json() ?? null;
  } catch {
    raw = null; // not JSON: shown as an untitled notification rather than dropped
  }
  const shown = toShown(parsePayload(raw), scope.origin);
  // Chromium requires every push to show something; waitUntil keeps the worker alive until it has.
  event.waitUntil(scope.showNotification(shown.title, shown.options));
});

sw.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(respondToClick(event.notification, event.action, scope));
});

// The tests call the click logic here (headless Chromium cannot click a system notification).
Object.assign(sw, { heraldRespondToClick: (notification: Notification, action: string) => respondToClick(notification, action, scope) });
