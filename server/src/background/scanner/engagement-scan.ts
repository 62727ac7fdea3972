// The concern-based scan: an engagement with no activity for the stale period nudges its
// operator, once per period of inactivity.
import { ENGAGEMENT_SCAN_SOURCE, isStale, staleTriggerRef } from "../../domain/companion.ts";
import type { RaiseInput } from "../../service/notification-service.ts";
import type { ScanSource } from "./selection.ts";
import { SCAN_PAGE } from "./scan-deps.ts";

// One formatter for every nudge (toLocaleDateString builds a new one per call).
const sinceFormat = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", timeZone: "UTC" });

/** The nudges due at `now` (fired or not: selection.ts leaves out what fired). */
export async function dueNudges(scan: ScanSource, now: Date, staleDays: number, pause: () => Promise<void>): Promise<{ checked: number; due: RaiseInput[] }> {
  const due: RaiseInput[] = [];
  let checked = 0;
  for (let after: string | null = null; ;) {
    const engagements = await scan.engagementActivity(after, SCAN_PAGE);
    for (const engagement of engagements) {
      const last = engagement.lastActivity;
      if (!isStale(last, now, staleDays)) continue;
      const days = Math.floor((now.getTime() - last.getTime()) / 86_400_000);
      const since = sinceFormat.format(last);
      due.push({
        personId: engagement.operatorPersonId,
        triggerRef: staleTriggerRef(engagement.id, last),
        triggerType: "TIME_BASED",
        triggerSource: ENGAGEMENT_SCAN_SOURCE,
        subsystem: "scanner",
        engagementId: engagement.id,
        title: `${engagement.name} has been quiet for ${days} days`,
        body: `Nothing has happened in ${engagement.name} since ${since}. Pick it back up, or let it rest?`,
      });
    }
    checked += engagements.length;
    if (engagements.length < SCAN_PAGE) return { checked, due };
    after = engagements[engagements.length - 1]!.id;
    await pause();
  }
}
