// Rules of the notifications Herald raises by itself (the scanner and the event listeners):
// their trigger references, de-duplication keys and inactivity. Pure.

/**
 * The store's uniqueness key: a trigger fires at most once per person. A ref is unique only
 * within its source (an engine's ids per event type, a scan's own refs), so the source is part of
 * the key: a render and an assertion with the same engine id are two triggers, and no event can
 * claim a scanner's ref. `Notification.trigger.ref` keeps the plain ref.
 */
export function dedupKeyOf(personId: string, source: string, triggerRef: string): string {
  return `${personId}|${source}|${triggerRef}`;
}

/** The trigger source of an event listener's notifications: the event's type. */
export const eventTriggerSource = (eventType: string) => `event:${eventType}`;
/** The trigger sources of the periodic scanner's two scans. */
export const DATE_SCAN_SOURCE = "scan:dates";
export const ENGAGEMENT_SCAN_SOURCE = "scan:engagements";

/** One reminder per (fact, occurrence). */
export function factTriggerRef(factId: string, date: string): string {
  return `fact:${factId}:${date}`;
}

/**
 * One nudge per inactivity period: the period is named by the last activity before it, so new
 * activity followed by a new silence nudges again, and a nudge never nudges twice.
 */
export function staleTriggerRef(engagementId: string, lastActivity: Date): string {
  return `stale:${engagementId}:${lastActivity.toISOString()}`;
}

export function isStale(lastActivity: Date, now: Date, staleDays: number): boolean {
  return now.getTime() - lastActivity.getTime() >= staleDays * 86_400_000;
}

/** The notification key of a raised trigger (unique per person with the trigger itself). */
export function companionKeyOf(source: string, triggerRef: string): string {
  return `companion:${source}:${triggerRef}`;
}
