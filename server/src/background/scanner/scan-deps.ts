import { dedupKeyOf } from "../../domain/companion.ts";
import type { NotificationService, RaiseInput } from "../../service/notification-service.ts";
import type { ScanService } from "../../service/scan-service.ts";

/**
 * Rows per query. Small enough that one query never holds the (synchronous) SQLite driver long
 * while requests wait; large enough that a 100,000-fact cycle is a few hundred queries.
 */
export const SCAN_PAGE = 200;

export interface ScanDeps {
  scan: ScanService;
  notifications: NotificationService;
  /**
   * Yields to the event loop. The SQLite driver is synchronous: its queries resolve without
   * waiting for I/O, so a cycle that never pauses would hold up every request until it ends.
   */
  pause(): Promise<void>;
}

/**
 * Raises the page's due triggers. Those that fired before are skipped with one read for the
 * page, not a transaction each: in a steady state nearly every due trigger has fired already.
 * Returns how many notifications were created.
 */
export async function raiseUnfired(deps: ScanDeps, due: RaiseInput[]): Promise<number> {
  const fired = await deps.scan.firedAlready(due.map((r) => dedupKeyOf(r.personId, r.triggerRef)));
  let created = 0;
  for (const raise of due) {
    if (fired.has(dedupKeyOf(raise.personId, raise.triggerRef))) continue;
    if ((await deps.notifications.raise(raise)).created) created++;
    await deps.pause();
  }
  return created;
}
