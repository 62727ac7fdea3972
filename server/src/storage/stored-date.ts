// Times in raw query results. Prisma's own queries hand back Dates; raw statements hand back what
// the driver gives: a Date where it typed the column, else the stored form (SQLite keeps DateTime
// as ISO-8601 text, or epoch milliseconds; the scanner's PostgreSQL connection keeps `timestamp`
// as text). Stored times are UTC.
export function storedDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value));
  const text = String(value).replace(" ", "T");
  return new Date(/(Z|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text}Z`);
}
