import { performance } from "node:perf_hooks";
import type { NotificationService, RaiseInput } from "../../service/notification-service.ts";

/**
 * Rows per selection query. Selections run on their own thread, except on an in-memory store,
 * where one page is converted on the request thread in one go: small enough to cost about a
 * millisecond there.
 */
export const SCAN_PAGE = 1_000;

/**
 * Notifications per write transaction: the first batch's size, and the bounds of the sizes the
 * cycle adapts to (see raiseInBatches).
 */
export const RAISE_BATCH = { first: 50, min: 5, max: 200 };

/**
 * How long one batch may keep the request thread busy. A request that arrives during a batch waits
 * at most about this long: well under an idle list request's p99 on the machines measured, so a
 * cycle stays within the "2x of idle" goal (docs/decisions.md, "The companion").
 */
export const BATCH_BUSY_MS = 8;

/** Yields to the event loop: lets requests that arrived meanwhile run before the next step. */
export function pauseForRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * After each batch the cycle rests this many times as long as the batch took: the cycle takes at
 * most a third of the request thread's time, whatever a batch costs on the machine.
 */
const REST_PER_BATCH = 2;

/** A batch never makes the next wait longer than this. */
const MAX_REST_MS = 1_000;

/**
 * Raises the due triggers a batch at a time. Writes run on the request thread (the one writer).
 * Each batch is sized by how long the previous one kept that thread busy (event-loop time, not
 * wall time): SQLite's driver is synchronous and a batch of 50 held the thread for tens of
 * milliseconds, while on PostgreSQL the same batch mostly waits on the network and stays large.
 * Between batches the cycle rests (REST_PER_BATCH). Returns how many were created.
 */
export async function raiseInBatches(notifications: NotificationService, due: readonly RaiseInput[], pause: () => Promise<void>): Promise<number> {
  let created = 0;
  let size = RAISE_BATCH.first;
  let lastBatchMs = 0;
  for (let i = 0; i < due.length;) {
    if (i === 0) await pause();
    else await new Promise((resolve) => setTimeout(resolve, Math.min(lastBatchMs * REST_PER_BATCH, MAX_REST_MS)));
    const started = performance.now();
    const loop = performance.eventLoopUtilization();
    const batch = due.slice(i, i + size);
    created += await notifications.raiseMany(batch);
    i += batch.length;
    lastBatchMs = performance.now() - started;
    size = nextBatchSize(size, performance.eventLoopUtilization(loop).active);
  }
  return created;
}

/** Moves the size toward the busy-time target, at most doubling or halving per batch. */
export function nextBatchSize(size: number, busyMs: number): number {
  const scaled = size * (BATCH_BUSY_MS / Math.max(busyMs, 0.1));
  const bounded = Math.min(size * 2, Math.max(size / 2, scaled));
  return Math.round(Math.min(RAISE_BATCH.max, Math.max(RAISE_BATCH.min, bounded)));
}
