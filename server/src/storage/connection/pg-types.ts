// How node-postgres hands Herald's columns back, for every connection to the store (the server's
// pool, pg-store.ts, and the selection thread's, scan-connection.ts), written once:
// - `timestamp` columns (the models' DateTime) come back as text and are read as UTC by
//   stored-values.ts; pg's own parser would read them in the process's local time zone.
// - int8 (counts) comes back as bigint, as every other 64-bit integer does.
import type pg from "pg";

const INT8 = 20;
const TIMESTAMP_WITHOUT_TIME_ZONE = 1114;

/** The pool's type parsers: timestamps as text, 64-bit integers as bigint, the rest as pg reads them. */
export function postgresTypes(driver: typeof pg): { getTypeParser: typeof pg.types.getTypeParser } {
  const getTypeParser = ((oid: number, format?: "text" | "binary") => {
    if (oid === TIMESTAMP_WITHOUT_TIME_ZONE && format !== "binary") return (text: string) => text;
    if (oid === INT8 && format !== "binary") return (text: string) => BigInt(text);
    return driver.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser;
  return { getTypeParser };
}
