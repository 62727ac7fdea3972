// What the benchmark asks of a raw driver: the same writes and reads Herald performs, with no
// HTTP, GraphQL, validation or ORM in between. Ratios Herald/raw are taken against these.
import type { ListQuery, Published } from "./rows.ts";

/** A "Notification" row as the driver returns it (dates as the store holds them). */
export type RawRow = Record<string, unknown> & { id: string };

export interface RawDriver {
  /** Driver and version, for the report. */
  readonly name: string;
  /** Operations the throughput loop keeps in flight (1 for a synchronous driver). */
  readonly concurrency: number;
  /** One transaction: the row, the event-counter increment and the event-log row. */
  insertPublished(notification: Published): Promise<void>;
  /** One transaction: the row's new content (revision + 1), counter and event; returns the revision. */
  updatePublished(notification: Published): Promise<number>;
  /** Bulk-inserts rows (seed columns only) in one transaction. */
  seed(rows: readonly Published["row"][]): Promise<void>;
  /** Brings statistics to where the database would settle on its own; says what it did. */
  afterSeed(): Promise<string>;
  /** Ids of one page, in Herald's order, by the same SQL Prisma issues for the person's own rows. */
  listPage(query: ListQuery): Promise<string[]>;
  /** The same page with every column (the bare server renders it). */
  listRows(query: ListQuery): Promise<RawRow[]>;
  /**
   * One transaction: the active row of the key (locked on PostgreSQL), then an update of it or an
   * insert, the counter and the event, as a keyed upsert needs at the least.
   */
  upsertPublished(notification: Published): Promise<{ id: string; revision: number }>;
  /**
   * One transaction: the person's unseen rows among `ids` become SEEN (one UPDATE ... RETURNING),
   * the counter moves by their number and their events are inserted; returns the changed rows.
   */
  markSeen(personId: string, ids: readonly string[], now: Date): Promise<RawRow[]>;
  /** The database's plan for listPage's query, as text. */
  explainList(query: ListQuery): Promise<string>;
  revisionOf(id: string): Promise<number | null>;
  databaseVersion(): Promise<string>;
  close(): Promise<void>;
}

export function listParams(query: ListQuery, date: (d: Date) => string): (string | number)[] {
  const now = date(query.now);
  const after = query.after ? date(query.after.createdAt) : null;
  const keyset = query.after && after ? [after, after, after, query.after.id] : [];
  return [query.personId, "PENDING", "DELIVERED", "SEEN", now, now, ...keyset, query.limit, 0];
}
