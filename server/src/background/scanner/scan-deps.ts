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

/** A batch never makes the next wait longer than this. */
const MAX_REST_MS = 1_000;

/**
 * Raises the due triggers a batch at a time. Writes run on the request thread (the one writer),
 * so after each batch the cycle rests as long as the batch took: a cycle then takes at most
 * about half of that thread's time, whatever a batch costs on the machine, where a bare yield
 * between batches let a first cycle of thousands take nearly all of it.
 * Returns how many were created.
 */
export async function raiseInBatches(notifications: NotificationService, due: readonly RaiseInput[], pause: () => Promise<void>): Promise<number> {
  let created = 0;
  let lastBatchMs = 0;
  for (let i = 0; i < due.length; i += RAISE_BATCH) {
    if (i === 0) await pause();
    else await new Promise((resolve) => setTimeout(resolve, Math.min(lastBatchMs, MAX_REST_MS)));
    const started = performance.now();
    created += await notifications.raiseMany(due.slice(i, i + RAISE_BATCH));
    lastBatchMs = performance.now() - started;
  }
  return created;
}
