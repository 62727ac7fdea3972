// What Herald's Web Push channel sends (the channel payload, also a webhook's `data`), and how the
// service worker shows it: title, severity and body, up to two action buttons, and a tag per
// notification so a newer revision replaces the one on screen instead of stacking under it.
// Pure: no browser objects, so the page and the worker share it.
import { t } from "@herald/sdk/ui/i18n/pages.ts";

export type Severity = "INFO" | "SUCCESS" | "WARNING" | "ERROR";
const SEVERITIES: readonly Severity[] = ["INFO", "SUCCESS", "WARNING", "ERROR"];

export interface PushAction {
  id: string;
  label: string;
  url: string;
}

export interface ChannelPayload {
  type: string;
  notificationId: string | null;
  revision: number | null;
  title: string;
  body: string;
  severity: Severity;
  url: string | null;
  actions: PushAction[];
}

/** What a shown notification carries in `data`, for the click and its buttons. */
export interface ShownData {
  notificationId: string | null;
  revision: number | null;
  url: string;
  /** Action id -> its label and single-use action URL. */
  actions: Record<string, { label: string; url: string }>;
}

export interface ShownNotification {
  title: string;
  options: NotificationOptions & { data: ShownData; actions?: { action: string; title: string }[]; renotify?: boolean };
}

/** Browsers show at most two buttons (Notification.maxActions is 2 in Chromium). */
export const MAX_BUTTONS = 2;
/** The lock screen shows a line or two: the inbox has the rest. */
const BODY_LIMIT = 240;

const text = (value: unknown, limit: number): string => (typeof value === "string" ? value.slice(0, limit) : "");

function httpUrl(value: unknown): string | null {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Reads a push message's JSON; anything malformed becomes empty fields, never an exception. */
export function parsePayload(raw: unknown): ChannelPayload {
  const p = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const severity = SEVERITIES.includes(p.severity as Severity) ? (p.severity as Severity) : "INFO";
  const actions: PushAction[] = [];
  for (const a of Array.isArray(p.actions) ? (p.actions as Record<string, unknown>[]) : []) {
    const url = httpUrl(a?.url);
    const id = text(a?.id, 100);
    if (url && id && !actions.some((known) => known.id === id)) actions.push({ id, label: text(a.label, 60) || id, url });
  }
  return {
    type: text(p.type, 60),
    notificationId: text(p.notificationId, 200) || null,
    revision: typeof p.revision === "number" && Number.isInteger(p.revision) ? p.revision : null,
    title: text(p.title, 200),
    body: text(p.body, 4000),
    severity,
    url: httpUrl(p.url),
    actions,
  };
}

/**
 * The tag that makes a notification's revisions replace each other on screen (and the one test
 * send replace the last). The dashboard's own tab notifications (desktop.svelte.ts) tag by the
 * bare id; both never show for one person at once in practice, so they are kept apart.
 */
export function tagOf(payload: Pick<ChannelPayload, "notificationId" | "type">): string {
  return payload.notificationId ? `herald:${payload.notificationId}` : `herald:${payload.type || "message"}`;
}

/**
 * `origin` is the dashboard's (the worker's own): a click opens the payload's URL only when it is
 * on this dashboard, and the dashboard's start page otherwise.
 */
export function toShown(payload: ChannelPayload, origin: string): ShownNotification {
  const severity = t.variant[payload.severity];
  const body = payload.body.length > BODY_LIMIT ? `${payload.body.slice(0, BODY_LIMIT - 1)}…` : payload.body;
  const buttons = payload.actions.slice(0, MAX_BUTTONS);
  const url = payload.url && new URL(payload.url).origin === origin ? payload.url : `${origin}/`;
  return {
    title: payload.title || t.push.untitled,
    options: {
      body: body ? t.push.body(severity, body) : severity,
      tag: tagOf(payload),
      // A new revision replaced on screen still buzzes: it was made unseen again for a reason.
      renotify: true,
      // An error, or a question waiting for an answer, stays until the person deals with it.
      requireInteraction: payload.severity === "ERROR" || buttons.length > 0,
      actions: buttons.map((a) => ({ action: a.id, title: a.label })),
      data: {
        notificationId: payload.notificationId,
        revision: payload.revision,
        url,
        actions: Object.fromEntries(buttons.map((a) => [a.id, { label: a.label, url: a.url }])),
      },
    },
  };
}
