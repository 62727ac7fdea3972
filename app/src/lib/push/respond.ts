// What a click on a shown push notification does, as a plain function the service worker's
// `notificationclick` listener calls (a real click cannot be delivered to a headless browser, so
// the tests call this function in the worker instead).
// - The notification itself: brings a dashboard tab forward and opens the notification in it
//   (the tab's inbox, through a message), or opens a new tab at the notification's URL.
// - An action button: POSTs its single-use action URL (the token in it is the credential, so no
//   cookie is sent). When Herald refuses (already answered, a newer revision, expired) or cannot
//   be reached, the person is told so by a notification in the same place, which opens the
//   dashboard when clicked.
import { t } from "@herald/sdk/ui/i18n/pages.ts";
import type { ShownData, ShownNotification } from "./payload";

/** The message a dashboard tab receives to open a notification in its inbox. */
export const OPEN_MESSAGE = "herald.open-notification";

export interface OpenMessage {
  type: typeof OPEN_MESSAGE;
  notificationId: string;
}

/** A dashboard tab as the worker sees it (a WindowClient). */
export interface WorkerTab {
  url: string;
  postMessage(message: unknown): void;
  focus(): Promise<unknown>;
}

/** The parts of the worker's global scope this needs (typed here: the page's DOM types have no worker scope). */
export interface WorkerScope {
  origin: string;
  clients: {
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<readonly WorkerTab[]>;
    openWindow(url: string): Promise<unknown>;
  };
  fetch: typeof fetch;
  showNotification(title: string, options: NotificationOptions): Promise<void>;
}

export type ClickOutcome = "opened" | "focused" | "answered" | "refused" | "unreachable";

function isShownData(value: unknown): value is ShownData {
  return typeof value === "object" && value !== null && typeof (value as ShownData).url === "string" && typeof (value as ShownData).actions === "object";
}

async function open(data: ShownData, scope: WorkerScope): Promise<ClickOutcome> {
  const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
  const tab = windows.find((w) => new URL(w.url).origin === scope.origin);
  if (tab && data.notificationId) {
    const message: OpenMessage = { type: OPEN_MESSAGE, notificationId: data.notificationId };
    tab.postMessage(message);
    // Browsers allow focus only during a real click; without one the tab still opened it.
    await tab.focus().catch(() => undefined);
    return "focused";
  }
  await scope.clients.openWindow(data.url);
  return "opened";
}

async function act(data: ShownData, action: { label: string; url: string }, title: string, scope: WorkerScope): Promise<ClickOutcome> {
  let status: number | null = null;
  try {
    // No body is needed for a button without a form; credentials: "omit" keeps cookies out of it.
    const response = await scope.fetch(action.url, { method: "POST", credentials: "omit", headers: { "content-type": "application/json" }, body: "{}" });
    status = response.status;
  } catch {
    status = null;
  }
  if (status !== null && status >= 200 && status < 300) return "answered";
  const reason = status === null || status >= 500 ? t.push.unreachable : t.push.refused;
  const followUp: ShownNotification["options"] = {
    body: reason,
    tag: data.notificationId ? `herald:${data.notificationId}` : "herald:action",
    renotify: true,
    requireInteraction: true,
    data: { ...data, actions: {} },
  };
  await scope.showNotification(t.push.notDone(action.label, title), followUp);
  return status === null || status >= 500 ? "unreachable" : "refused";
}

/** `action` is the clicked button's id, or "" for the notification itself. */
export async function respondToClick(notification: { title: string; data: unknown }, action: string, scope: WorkerScope): Promise<ClickOutcome> {
  if (!isShownData(notification.data)) {
    await scope.clients.openWindow(`${scope.origin}/`);
    return "opened";
  }
  const data = notification.data;
  const button = action ? data.actions[action] : undefined;
  return button ? act(data, button, notification.title, scope) : open(data, scope);
}
