// How a notification shown away from this tab (a Web Push notification, an ntfy message, a
// webhook's link) opens in the dashboard: its URL carries `?notification=<id>`, and a click on a
// push notification while a dashboard tab is open reaches that tab as a message from the service
// worker (lib/push/respond.ts), so the inbox opens on it without a reload.
import { OPEN_MESSAGE, type OpenMessage } from "$lib/push/respond";

export const NOTIFICATION_PARAM = "notification";

/** The notification a dashboard URL asks to open, if any. */
export function notificationToOpen(url: URL): string | null {
  const id = url.searchParams.get(NOTIFICATION_PARAM);
  return id && id.length <= 200 ? id : null;
}

function isOpenMessage(data: unknown): data is OpenMessage {
  return typeof data === "object" && data !== null && (data as OpenMessage).type === OPEN_MESSAGE && typeof (data as OpenMessage).notificationId === "string";
}

/** Browser only: opens what the service worker asks for; returns the cleanup. */
export function followWorkerMessages(open: (id: string) => void): () => void {
  const container = typeof navigator !== "undefined" ? navigator.serviceWorker : undefined;
  if (!container) return () => undefined;
  const onMessage = (event: MessageEvent) => {
    if (isOpenMessage(event.data)) open(event.data.notificationId);
  };
  container.addEventListener("message", onMessage);
  container.startMessages();
  return () => container.removeEventListener("message", onMessage);
}
