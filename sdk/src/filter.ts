// Whether a notification belongs to a filtered list, mirroring the server's rules, so a live
// view can place an event without asking the server.
import type { Notification, NotificationFilter, NotificationStatus } from "./types.ts";
import { TERMINAL_STATUSES, UNSEEN_STATUSES } from "./types.ts";

const ACTIVE: readonly NotificationStatus[] = ["PENDING", "DELIVERED", "SEEN"];

export function matchesFilter(n: Notification, filter: NotificationFilter, now: Date): boolean {
  const statuses = filter.statuses?.length ? filter.statuses : filter.includeTerminal ? null : ACTIVE;
  if (statuses && !statuses.includes(n.status)) return false;
  if (filter.scope && n.scope !== filter.scope) return false;
  if (filter.sessionId && n.sessionId !== filter.sessionId) return false;
  if (filter.engagementId && n.engagement?.id !== filter.engagementId) return false;
  if (filter.severities?.length && !filter.severities.includes(n.severity)) return false;
  if (filter.plugins?.length && !filter.plugins.includes(n.source.plugin)) return false;
  if (!filter.includeSnoozed && isSnoozed(n, now)) return false;
  const ttlPassed = n.retention.policy === "TTL" && n.retention.expiresAt !== null && Date.parse(n.retention.expiresAt) <= now.getTime();
  if (ttlPassed && !filter.includeTerminal) return false;
  return true;
}

/** Snoozed into the future: left out of lists unless they ask for snoozed records. */
export function isSnoozed(n: Pick<Notification, "snoozedUntil">, now: Date | number): boolean {
  return n.snoozedUntil !== null && Date.parse(n.snoozedUntil) > (typeof now === "number" ? now : now.getTime());
}

/** Newest first: createdAt, then id, both descending (the server's order). */
export function newestFirst(a: Notification, b: Notification): number {
  const t = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  if (t !== 0) return t;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export function isTerminal(n: Pick<Notification, "status">): boolean {
  return TERMINAL_STATUSES.includes(n.status);
}

/** Counted by the unseen badge: not yet seen, and not ended. */
export function isUnseen(n: Pick<Notification, "status">): boolean {
  return UNSEEN_STATUSES.includes(n.status);
}

/**
 * Whether `candidate` may replace `known`: never an older revision, and within a revision never
 * an older change (revision, then updatedAt order every change of a person's view).
 */
export function supersedes(candidate: Notification, known: Notification | undefined): boolean {
  if (!known) return true;
  if (candidate.revision !== known.revision) return candidate.revision > known.revision;
  const c = Date.parse(candidate.updatedAt);
  const k = Date.parse(known.updatedAt);
  if (c !== k) return c > k;
  return stateOf(candidate) !== stateOf(known);
}

function stateOf(n: Notification): string {
  return `${n.status}|${n.snoozedUntil ?? ""}|${n.seenAt ?? ""}|${n.deliveredAt ?? ""}|${n.dismissedAt ?? ""}`;
}
