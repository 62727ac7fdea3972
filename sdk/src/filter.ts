// Whether a notification belongs to a filtered list, mirroring the server's rules, so a live
// view can place an event without asking the server.
import { ACTIVE_STATUSES, TERMINAL_STATUSES, UNSEEN_STATUSES } from "./statuses.ts";
import type { Notification, NotificationFilter } from "./types.ts";

/**
 * `shown`: the record is on screen in the view asking. A TTL deadline is a presentation deadline
 * for new views only: a view that already shows the record keeps it until the person acts on it
 * or the view reloads (docs/decisions.md, "TTL").
 */
export function matchesFilter(n: Notification, filter: NotificationFilter, now: Date, options: { shown?: boolean } = {}): boolean {
  const statuses = filter.statuses?.length ? filter.statuses : filter.includeTerminal ? null : ACTIVE_STATUSES;
  if (statuses && !statuses.includes(n.status)) return false;
  if (filter.scope && n.scope !== filter.scope) return false;
  if (filter.sessionId && n.sessionId !== filter.sessionId) return false;
  if (filter.engagementId && n.engagement?.id !== filter.engagementId) return false;
  if (filter.severities?.length && !filter.severities.includes(n.severity)) return false;
  if (filter.plugins?.length && !filter.plugins.includes(n.source.plugin)) return false;
  if (filter.excludePlugins?.length && filter.excludePlugins.includes(n.source.plugin)) return false;
  if (filter.unread !== null && filter.unread !== undefined && isUnread(n) !== filter.unread) return false;
  if (!filter.includeSnoozed && isSnoozed(n, now)) return false;
  if (!options.shown && pastDeadline(n, now) && !filter.includeTerminal) return false;
  return true;
}

/** A TTL record whose deadline has passed: new views leave it out. */
export function pastDeadline(n: Pick<Notification, "retention">, now: Date | number): boolean {
  const at = typeof now === "number" ? now : now.getTime();
  return n.retention.policy === "TTL" && n.retention.expiresAt !== null && Date.parse(n.retention.expiresAt) <= at;
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

/** Not yet opened or acted on by this person (read is apart from seen: a seen record may be unread). */
export function isUnread(n: Pick<Notification, "readAt">): boolean {
  return n.readAt === null;
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
  if (stateOf(candidate) !== stateOf(known)) return true;
  return invocationNewer(candidate.lastInvocation, known.lastInvocation);
}

type LastInvocation = Notification["lastInvocation"];
const INVOCATION_RANK = { PENDING: 1, ACKNOWLEDGED: 2, FAILED: 2 } as const;

/**
 * An invocation's state changes without a new revision (INVOCATION events), so it is ordered on
 * its own: a later invocation (ids grow with time) wins, and for one invocation settled beats
 * pending, never the other way round.
 */
function invocationNewer(candidate: LastInvocation, known: LastInvocation): boolean {
  if (!candidate) return false;
  if (!known) return true;
  if (candidate.id !== known.id) return candidate.id > known.id;
  return INVOCATION_RANK[candidate.state] > INVOCATION_RANK[known.state];
}

function stateOf(n: Notification): string {
  return `${n.status}|${n.snoozedUntil ?? ""}|${n.seenAt ?? ""}|${n.readAt ?? ""}|${n.deliveredAt ?? ""}|${n.dismissedAt ?? ""}`;
}
