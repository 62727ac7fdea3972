// The concern-based scan: an engagement with no activity for the stale period nudges its
// operator, once per period of inactivity.
import { isStale, staleTriggerRef } from "../../domain/companion.ts";
import type { RaiseInput } from "../../service/notification-service.ts";
import { raiseUnfired, SCAN_PAGE, type ScanDeps } from "./scan-deps.ts";

export async function scanEngagements(deps: ScanDeps, now: Date, staleDays: number): Promise<{ checked: number; created: number }> {
  let checked = 0;
  let created = 0;
  for (let after: string | null = null; ; ) {
    await deps.pause();
    const engagements = await deps.scan.engagements(after, SCAN_PAGE);
    await deps.pause();
    const activity = await deps.scan.lastActivity(engagements.map((e) => e.id));
    const due: RaiseInput[] = [];
    for (const engagement of engagements) {
      const seen = activity.get(engagement.id);
      const last = seen && seen > engagement.createdAt ? seen : engagement.createdAt;
      if (!isStale(last, now, staleDays)) continue;
      const days = Math.floor((now.getTime() - last.getTime()) / 86_400_000);
      const since = last.toLocaleDateString("en-US", { month: "long", day: "numeric", timeZone: "UTC" });
      due.push({
        personId: engagement.operatorPersonId,
        triggerRef: staleTriggerRef(engagement.id, last),
        triggerType: "TIME_BASED",
        subsystem: "scanner",
        engagementId: engagement.id,
        title: `${engagement.name} has been quiet for ${days} days`,
        body: `Nothing has happened in ${engagement.name} since ${since}. Pick it back up, or let it rest?`,
      });
    }
    created += await raiseUnfired(deps, due);
    checked += engagements.length;
    if (engagements.length < SCAN_PAGE) return { checked, created };
    after = engagements[engagements.length - 1]!.id;
  }
}
