// Tells a store that cannot be reached (down, restarting, connection cut) from any other failure,
// so callers get a clear "retry shortly" instead of an unexpected error.

/** PostgreSQL's admin shutdown, crash shutdown and "cannot connect now" (starting or stopping). */
const POSTGRES_STATES = new Set(["57P01", "57P02", "57P03"]);
const NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"]);
/** SQLite's code (storage/connection/sqlite-driver.ts) when another process held the file's lock past the busy wait. */
const SQLITE_CODES = new Set(["SQLITE_BUSY"]);
const MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|the database system is (starting up|shutting down)|terminating connection due to administrator command/i;

export function isStorageUnavailable(error: unknown): boolean {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    if (typeof e.code === "string" && (POSTGRES_STATES.has(e.code) || NODE_CODES.has(e.code) || SQLITE_CODES.has(e.code))) return true;
    if (typeof e.message === "string" && MESSAGES.test(e.message)) return true;
    e = e.cause as Record<string, unknown> | undefined;
  }
  return false;
}
