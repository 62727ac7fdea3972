import type { NotificationService, RaiseInput } from "../../service/notification-service.ts";

/**
 * Rows per selection query. In-process (PostgreSQL) the rows of one page are converted on the
 * request thread in one go, so a page stays small enough to cost about a millisecond there.
 */
export const SCAN_PAGE = 1_000;

/**
 * Notifications per write transaction. One batch holds SQLite's single writer (and PostgreSQL's
 * event counter row) for a few milliseconds; other writers wait at most that long.
 */
export const RAISE_BATCH = 50;

/** Yields to the event loop: lets requests that arrived meanwhile run before the next step. */
export function pauseForRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Raises the due triggers a batch at a time, yielding between batches. Returns how many were created. */
export async function raiseInBatches(notifications: NotificationService, due: readonly RaiseInput[], pause: () => Promise<void>): Promise<number> {
  let created = 0;
  for (let i = 0; i < due.length; i += RAISE_BATCH) {
    await pause();
    created += await notifications.raiseMany(due.slice(i, i + RAISE_BATCH));
  }
  return created;
}
