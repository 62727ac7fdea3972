// Rules of the notifications Herald raises by itself (the scanner and the event listeners):
// their trigger references, de-duplication keys and inactivity. Pure.

/** The store's uniqueness key: a trigger fires at most once per person. */
export function dedupKeyOf(personId: string, triggerRef: string): string {
  return `${personId}|${triggerRef}`;
}

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
export function companionKeyOf(triggerRef: string): string {
  return `companion:${triggerRef}`;
}
