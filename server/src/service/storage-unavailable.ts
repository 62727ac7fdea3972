// Tells a store that cannot be reached (down, restarting, connection cut) from any other failure,
// so callers get a clear "retry shortly" instead of an unexpected error.

/** Prisma's codes for an unreachable server, a dropped connection, or no connection in time. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
/** Driver adapter error kinds with the same meaning. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** PostgreSQL's admin shutdown, crash shutdown and "cannot connect now" (starting or stopping). */
const POSTGRES_STATES = new Set(["57P01", "57P02", "57P03"]);
const NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"]);
/** better-sqlite3's code when another process held the SQLite file's lock past the busy timeout (the adapter's SocketTimeout). */
const SQLITE_CODES = new Set(["SQLITE_BUSY"]);
const MESSAGES = /timeout exceeded when trying to connect|Connection terminated|Can't reach database server|Server has closed the connection|the database system is (starting up|shutting down)|terminating connection due to administrator command/i;

export function isStorageUnavailable(error: unknown): boolean {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    if (typeof e.code === "string" && (PRISMA_CODES.has(e.code) || POSTGRES_STATES.has(e.code) || NODE_CODES.has(e.code) || SQLITE_CODES.has(e.code))) return true;
    const cause = (e.meta as { driverAdapterError?: { cause?: { kind?: string; originalCode?: string } } } | undefined)?.driverAdapterError?.cause;
    if (cause && (ADAPTER_KINDS.has(cause.kind ?? "") || POSTGRES_STATES.has(cause.originalCode ?? ""))) return true;
    if (typeof e.message === "string" && MESSAGES.test(e.message)) return true;
    e = e.cause as Record<string, unknown> | undefined;
  }
  return false;
}
