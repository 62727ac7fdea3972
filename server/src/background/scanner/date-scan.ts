// The time-based scan: a reminder for each date in a person's remembered facts that is at most
// the lead time away, once per (fact, occurrence).
import { DATE_SCAN_SOURCE, factTriggerRef } from "../../domain/companion.ts";
import { daysUntil, parseDateRules, personTimeZone, upcomingOccurrence } from "../../domain/date-rules.ts";
import type { RaiseInput } from "../../service/notification-service.ts";
import type { ScanSource } from "./selection.ts";
import { SCAN_PAGE } from "./scan-deps.ts";

/** The reminders due at `now` (fired or not: selection.ts leaves out what fired). */
export async function dueReminders(
  scan: ScanSource,
  now: Date,
  leadDays: number,
  pause: () => Promise<void>,
  timeZone = "UTC",
): Promise<{ checked: number; due: RaiseInput[] }> {
  const due: RaiseInput[] = [];
  let checked = 0;
  for (let after: string | null = null; ;) {
    const facts = await scan.datedFacts(after, SCAN_PAGE);
    for (const fact of facts) {
      const zone = personTimeZone(quietHoursOf(fact.quietHours), timeZone);
      for (const rule of parseDateRules(fact.dateRules)) {
        const date = upcomingOccurrence(rule, now, leadDays, zone);
        if (date) due.push(reminder(fact, date, now, zone));
      }
    }
    checked += facts.length;
    if (facts.length < SCAN_PAGE) return { checked, due };
    after = facts[facts.length - 1]!.id;
    await pause();
  }
}

// One formatter for every reminder: toLocaleDateString builds a new one per call, which cost more
// than the rest of a steady cycle's work on the request thread.
const dayFormat = new Intl.DateTimeFormat("en-US", { weekday: "long", month: "long", day: "numeric", timeZone: "UTC" });

/** The stored quiet hours, read for their zone only; anything unreadable counts as none. */
function quietHoursOf(stored: string | null): { timeZone: string } | null {
  try {
    const value = stored ? (JSON.parse(stored) as { timeZone?: unknown }) : null;
    return value && typeof value.timeZone === "string" ? { timeZone: value.timeZone } : null;
  } catch {
    return null;
  }
}

function reminder(fact: { id: string; personId: string; content: string }, date: string, now: Date, timeZone: string): RaiseInput {
  const days = daysUntil(date, now, timeZone);
  const when = days === 0 ? "Today" : days === 1 ? "Tomorrow" : `In ${days} days`;
  const day = dayFormat.format(new Date(`${date}T00:00:00Z`));
  return {
    personId: fact.personId,
    triggerRef: factTriggerRef(fact.id, date),
    triggerType: "TIME_BASED",
    triggerSource: DATE_SCAN_SOURCE,
    subsystem: "scanner",
    engagementId: null,
    title: clip(`${when}: ${fact.content}`, 200),
    body: clip(`You told me: “${fact.content}”. That is ${day}.`, 2_000),
  };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
