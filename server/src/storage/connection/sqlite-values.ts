// Bound values as the SQLite driver takes them. Apart from sqlite-store.ts so that code which only
// runs on SQLite (sqlite-unit.ts) can be imported on PostgreSQL without loading the SQLite store.
import { checkedParameters } from "./connection.ts";

/** Times are already encoded by sql.ts (storedTime); a bare Date is refused. */
export function sqliteValues(parameters: readonly unknown[]): unknown[] {
  return checkedParameters(parameters).map((value) => (value === undefined ? null : typeof value === "boolean" ? (value ? 1 : 0) : value));
}
