// Channels: the ways a person is reached away from the dashboard (docs/channels.md). The rules
// that select what a channel receives, the checks on what a person registers, the payload every
// sender carries, and when a failed attempt is tried again. Pure: no I/O.
import { type NotificationScope, NotificationScopes, type Severity, Severities } from "./enums.ts";
import { ValidationError } from "./errors.ts";

export const ChannelKinds = ["WEB_PUSH", "NTFY", "WEBHOOK"] as const;
export type ChannelKind = (typeof ChannelKinds)[number];

export const DeliveryStatuses = ["PENDING", "SENT", "FAILED", "SKIPPED"] as const;
export type DeliveryStatus = (typeof DeliveryStatuses)[number];

export type DeliveryType = "notification.created" | "notification.updated" | "channel.test";

export interface ChannelRules {
  minSeverity: Severity;
  scopes: NotificationScope[];
  delaySeconds: number;
}

export const DEFAULT_RULES: ChannelRules = { minSeverity: "INFO", scopes: [...NotificationScopes], delaySeconds: 0 };

/** A channel as its person sees it: never its secrets. */
export interface Channel {
  id: string;
  personId: string;
  kind: ChannelKind;
  label: string;
  url: string;
  rules: ChannelRules;
  failing: boolean;
  lastDeliveryAt: Date | null;
  createdAt: Date;
}

/** What a sender needs and nobody reads back: kept encrypted, returned never (WEBHOOK's secret once, at creation). */
export type ChannelSecret = { kind: "WEB_PUSH"; p256dh: string; auth: string } | { kind: "NTFY"; token: string | null } | { kind: "WEBHOOK"; secret: string };

export interface ChannelDelivery {
  id: string;
  channelId: string;
  personId: string;
  notificationId: string | null;
  revision: number;
  type: DeliveryType;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  dueAt: number;
  createdAt: Date;
  sentAt: Date | null;
}

export function severityRank(severity: Severity): number {
  return Severities.indexOf(severity);
}

export function severityOfRank(rank: number): Severity {
  return Severities[Math.max(0, Math.min(Severities.length - 1, rank))]!;
}

/** Longest delay a rule may ask for: a week. */
export const MAX_DELAY_SECONDS = 7 * 24 * 3600;
export const MAX_LABEL_LENGTH = 100;
export const MAX_URL_LENGTH = 2048;
/** Channels one person may hold: each is a fan-out target of every notification they see. */
export const MAX_CHANNELS_PER_PERSON = 20;

/** The rules after a change: given fields replace, absent ones stay. */
export function changedRules(
  current: ChannelRules,
  patch: { minSeverity?: Severity | null; scopes?: readonly NotificationScope[] | null; delaySeconds?: number | null },
): ChannelRules {
  const next: ChannelRules = { ...current };
  if (patch.minSeverity != null) next.minSeverity = patch.minSeverity;
  if (patch.scopes != null) {
    if (patch.scopes.length === 0) throw new ValidationError("rules.scopes", "scopes must name at least one scope (leave it out for all)");
    next.scopes = NotificationScopes.filter((s) => patch.scopes!.includes(s));
  }
  if (patch.delaySeconds != null) {
    if (!Number.isInteger(patch.delaySeconds) || patch.delaySeconds < 0 || patch.delaySeconds > MAX_DELAY_SECONDS) {
      throw new ValidationError("rules.delaySeconds", `delaySeconds must be between 0 and ${MAX_DELAY_SECONDS}`);
    }
    next.delaySeconds = patch.delaySeconds;
  }
  return next;
}

export function checkedLabel(label: string | null | undefined, fallback: string): string {
  const text = (label ?? "").trim();
  if (text.length > MAX_LABEL_LENGTH) throw new ValidationError("input.label", `label is at most ${MAX_LABEL_LENGTH} characters`);
  return text || fallback;
}

/**
 * A channel URL as registered: absolute, https: (http: only for an allowed host), no credentials
 * in it, and not a literal private, loopback or link-local address unless allowed. Host names are
 * checked again on the address they resolve to at every send (DNS rebinding).
 */
export function checkedChannelUrl(value: string, field: string, allowHosts: ReadonlySet<string>): URL {
  if (value.length > MAX_URL_LENGTH) throw new ValidationError(field, `the URL is at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ValidationError(field, "not an absolute URL");
  }
  const allowed = isAllowedHost(url.hostname, allowHosts);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowed)) throw new ValidationError(field, "the URL must use https:");
  if (url.username || url.password) throw new ValidationError(field, "the URL must not carry credentials");
  if (url.hash) throw new ValidationError(field, "the URL must not have a fragment");
  const literal = literalAddress(url.hostname);
  if (literal && !allowed && isNonPublicAddress(literal))
    throw new ValidationError(field, "the URL must not point at a private, loopback or link-local address");
  if (!literal && !allowed && isLocalName(url.hostname)) throw new ValidationError(field, "the URL must not point at this machine or a local network name");
  return url;
}

export function isAllowedHost(hostname: string, allowHosts: ReadonlySet<string>): boolean {
  return allowHosts.has(hostname.toLowerCase()) || allowHosts.has(literalAddress(hostname) ?? "");
}

/** The address a URL's host names literally ("[::1]" as "::1"), or null for a name. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(bare)) return bare;
  if (bare.includes(":")) return bare.toLowerCase();
  return null;
}

function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost") || name.endsWith(".local") || name.endsWith(".internal") || !name.includes(".");
}

/**
 * Whether an address is one a channel must not reach: unspecified, loopback, private (RFC 1918,
 * unique local), shared (CGNAT), link-local, multicast, reserved, or an IPv4 one mapped into IPv6.
 */
export function isNonPublicAddress(address: string): boolean {
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    );
  }
  const v6 = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (mapped) return isNonPublicAddress(mapped[1]!);
  if (v6 === "::" || v6 === "::1") return true;
  const groups = v6.split(":");
  const first = parseInt(groups[0] || "0", 16);
  // 6to4 (2002::/16) carries an IPv4 address in its next two groups: judged by that address.
  if (first === 0x2002) {
    const [high, low] = [parseInt(groups[1] || "0", 16), parseInt(groups[2] || "0", 16)];
    return isNonPublicAddress(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`);
  }
  // Teredo (2001:0::/32) tunnels to an address it hides: never a channel's target.
  if (first === 0x2001 && parseInt(groups[1] || "0", 16) === 0) return true;
  // fc00::/7 unique local, fe80::/10 link-local, ff00::/8 multicast, and anything IPv4-compatible (::a.b.c.d).
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00 || v6.startsWith("::") || v6.startsWith("64:ff9b:");
}

/** A base64url value of a push subscription key, with its decoded length checked. */
export function checkedKey(value: string, field: string, bytes: number): string {
  const trimmed = value.trim().replace(/=+$/, "");
  if (!/^[A-Za-z0-9_-]+$/.test(trimmed)) throw new ValidationError(field, `${field.split(".").pop()} must be base64url`);
  const length = Math.floor((trimmed.length * 3) / 4);
  if (length !== bytes) throw new ValidationError(field, `${field.split(".").pop()} must be ${bytes} bytes`);
  return trimmed;
}

export const MAX_TOKEN_LENGTH = 512;

/** A notification as a channel payload reads it (the record's person-independent fields). */
export interface PayloadSource {
  id: string;
  revision: number;
  title: string;
  body: string;
  severity: Severity;
  scope: NotificationScope;
  actions: readonly { kind: string; id: string; label: string; form?: readonly unknown[] | null }[];
}

/** The payload of the contract ("Channels", Payload): Web Push plaintext, webhook `data`, ntfy's fields. */
export interface ChannelPayload {
  type: DeliveryType;
  notificationId: string | null;
  revision: number;
  title: string;
  body: string;
  severity: Severity;
  scope: NotificationScope | null;
  url: string;
  actions: { id: string; label: string; url: string }[];
}

/**
 * Follow-ups a notification's receiver can act on from the channel: each gets an action URL. A
 * RUN_ACTION with a form is not one of them: a lock-screen button has nowhere to take the values,
 * so that follow-up is answered in the dashboard the notification's click opens.
 */
export function actionableFollowUps(actions: PayloadSource["actions"]): { id: string; label: string }[] {
  return actions.filter((a) => a.kind === "DISMISS" || (a.kind === "RUN_ACTION" && !(a.form && a.form.length > 0))).map((a) => ({ id: a.id, label: a.label }));
}

/** Web Push payloads must fit a push service's 4 KB limit with encryption overhead: the body is cut to fit. */
export const MAX_PUSH_PAYLOAD_BYTES = 3_000;

export function fitPayload(payload: ChannelPayload, maxBytes = MAX_PUSH_PAYLOAD_BYTES): ChannelPayload {
  let fitted = payload;
  let size = Buffer.byteLength(JSON.stringify(fitted));
  while (size > maxBytes && fitted.body.length > 0) {
    const cut = Math.max(0, fitted.body.length - (size - maxBytes) - 16);
    fitted = { ...fitted, body: cut > 0 ? `${fitted.body.slice(0, cut)}…` : "" };
    size = Buffer.byteLength(JSON.stringify(fitted));
  }
  if (size > maxBytes) fitted = { ...fitted, title: fitted.title.slice(0, 200), actions: fitted.actions.slice(0, 2) };
  return fitted;
}

/** ntfy priority (1 min .. 5 max) for a severity. */
export function ntfyPriority(severity: Severity): number {
  return { INFO: 3, SUCCESS: 3, WARNING: 4, ERROR: 5 }[severity];
}

/** Web Push urgency for a severity (RFC 8030 section 5.3). */
export function pushUrgency(severity: Severity): "low" | "normal" | "high" {
  return severity === "ERROR" || severity === "WARNING" ? "high" : "normal";
}

export type AttemptOutcome =
  | { kind: "sent" }
  /** Worth another try: network error, timeout, 5xx, 429. */
  | { kind: "retry"; error: string; retryAfterMs: number | null }
  /** The endpoint is gone for good (404/410 from a push service): the channel goes. */
  | { kind: "gone"; error: string }
  /** Refused for good: other 4xx, a redirect, an address the channel may not reach. */
  | { kind: "failed"; error: string };

/**
 * When the next attempt runs after `attempts` failed ones: base * 2^(attempts-1), with full
 * jitter on the upper half (so many channels failing together do not retry in step), and never
 * before a Retry-After the receiver asked for. `random` is in [0, 1).
 */
export function retryDelayMs(attempts: number, baseMs: number, retryAfterMs: number | null, random: number): number {
  const exponential = baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 20));
  const jittered = exponential / 2 + (exponential / 2) * random;
  const capped = Math.min(jittered, 6 * 3600 * 1000);
  return Math.max(capped, retryAfterMs ?? 0);
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now: Date): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), 24 * 3600) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.min(at - now.getTime(), 24 * 3600 * 1000));
}

/** A delivery's id: one per channel and revision (the outbox's uniqueness), also its receivers' deduplication key. */
export function deliveryIdOf(channelId: string, notificationId: string, revision: number): string {
  return `${channelId}.${notificationId}.${revision}`;
}

/** How long an action URL works. */
export const ACTION_TOKEN_TTL_MS = 24 * 3600 * 1000;
