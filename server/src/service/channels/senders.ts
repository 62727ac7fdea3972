// One attempt of one delivery, per channel kind, through the guarded request: Web Push (RFC 8030
// with RFC 8291 aes128gcm and RFC 8292 VAPID, built by web-push), ntfy's JSON publish, and a
// Standard Webhooks signed POST. The answer is classified into what the worker does next.
import { createHash } from "node:crypto";
import { Webhook } from "standardwebhooks";
import webpush from "web-push";
import {
  type AttemptOutcome,
  type Channel,
  type ChannelPayload,
  type ChannelSecret,
  fitPayload,
  ntfyPriority,
  pushUrgency,
  retryAfterMs,
} from "../../domain/channels.ts";
import { type GuardOptions, guardedRequest, RefusedTarget } from "./guarded-request.ts";
import type { VapidAuthorizations } from "./vapid-authorization.ts";

export interface SendContext {
  guard: GuardOptions;
  vapid: VapidAuthorizations;
  now: Date;
}

/** A delivery's stable id for receivers that deduplicate: the same on every retry (webhook-id, Web Push Topic). */
export function dedupIdOf(deliveryId: string): string {
  return createHash("sha256").update(deliveryId).digest("base64url").slice(0, 32);
}

export async function attempt(
  channel: Channel,
  secret: ChannelSecret,
  deliveryId: string,
  payload: ChannelPayload,
  context: SendContext,
): Promise<AttemptOutcome> {
  let request: { url: string; method: string; headers: Record<string, string | number>; body: Buffer | string };
  try {
    request = build(channel, secret, deliveryId, payload, context);
  } catch (error) {
    return { kind: "failed", error: `could not build the request: ${(error as Error).message}` };
  }
  try {
    const response = await guardedRequest(request.url, request, context.guard);
    return classify(channel, response.status, headerOf(response.headers["retry-after"]), context.now);
  } catch (error) {
    if (error instanceof RefusedTarget) return { kind: "failed", error: error.message };
    return { kind: "retry", error: networkError(error), retryAfterMs: null };
  }
}

function build(channel: Channel, secret: ChannelSecret, deliveryId: string, payload: ChannelPayload, context: SendContext) {
  switch (secret.kind) {
    case "WEB_PUSH": {
      const details = webpush.generateRequestDetails(
        { endpoint: channel.url, keys: { p256dh: secret.p256dh, auth: secret.auth } },
        JSON.stringify(fitPayload(payload)),
        {
          // Signed once per push service and reused (vapid-authorization.ts), not for every push.
          headers: { Authorization: context.vapid.headerFor(channel.url) },
          TTL: 24 * 3600,
          contentEncoding: "aes128gcm",
          urgency: pushUrgency(payload.severity),
          // One topic per notification: a newer revision waiting at the push service replaces an
          // older one, and a retry of one delivery replaces itself.
          topic: dedupIdOf(payload.notificationId ?? deliveryId),
        },
      );
      return { url: details.endpoint, method: details.method, headers: details.headers as Record<string, string | number>, body: details.body ?? "" };
    }
    case "NTFY": {
      const topicUrl = new URL(channel.url);
      const body = JSON.stringify({
        topic: topicUrl.pathname.slice(1),
        title: payload.title,
        message: payload.body || payload.title,
        priority: ntfyPriority(payload.severity),
        click: payload.url,
        tags: [payload.severity.toLowerCase()],
        actions: payload.actions.slice(0, 3).map((a) => ({ action: "http", label: a.label, url: a.url, method: "POST", clear: true })),
      });
      const headers: Record<string, string> = { "content-type": "application/json", "x-herald-delivery": dedupIdOf(deliveryId) };
      if (secret.token) headers.authorization = `Bearer ${secret.token}`;
      return { url: `${topicUrl.origin}/`, method: "POST", headers, body };
    }
    case "WEBHOOK": {
      const id = `msg_${dedupIdOf(deliveryId)}`;
      // Wall-clock, not the injectable clock: receivers check the timestamp against their own
      // clock (5 minutes' tolerance); it decides nothing here.
      const sentAt = new Date();
      const body = JSON.stringify({ type: payload.type, timestamp: sentAt.toISOString(), data: payload });
      const signature = new Webhook(secret.secret).sign(id, sentAt, body);
      return {
        url: channel.url,
        method: "POST",
        headers: {
          "content-type": "application/json",
          "webhook-id": id,
          "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
          "webhook-signature": signature,
        },
        body,
      };
    }
  }
}

function classify(channel: Channel, status: number, retryAfter: string | undefined, now: Date): AttemptOutcome {
  if (status >= 200 && status < 300) return { kind: "sent" };
  if (status >= 300 && status < 400) return { kind: "failed", error: `HTTP ${status}: redirects are not followed` };
  if ((status === 404 || status === 410) && channel.kind === "WEB_PUSH") return { kind: "gone", error: `HTTP ${status}: the push subscription is gone` };
  if (status === 429 || status === 408 || status >= 500) return { kind: "retry", error: `HTTP ${status}`, retryAfterMs: retryAfterMs(retryAfter, now) };
  return { kind: "failed", error: `HTTP ${status}` };
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A network failure as a short reason: its code, never the URL (an ntfy topic or a token may be in it). */
function networkError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.message?.startsWith("timed out")) return e.message;
  return e.code ? `network error ${e.code}` : "network error";
}
