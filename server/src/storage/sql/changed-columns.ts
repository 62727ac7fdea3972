// What a decision changes, column by column. A batch writes only the changed columns, so rows that
// change the same way (N records marked seen at one instant) share one UPDATE ... WHERE id IN (...).
// Writing just the difference gives the same row as writing every column, because the write is
// conditional on the lockVersion the columns were read at.

type Value = string | number | boolean | Date | null | undefined;

function same(a: Value, b: Value): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  return (a ?? null) === (b ?? null);
}

/** The columns of `next` whose value differs from `before`. */
export function changedColumns<T extends Record<string, Value>>(before: Readonly<Record<string, unknown>>, next: T): Partial<T> {
  const diff: Partial<T> = {};
  for (const key of Object.keys(next) as (keyof T & string)[]) {
    if (!same(before[key] as Value, next[key])) diff[key] = next[key];
  }
  return diff;
}

/** A stable text key for a set of column values, to group rows that receive the same write. */
export function writeKey(values: Record<string, Value>): string {
  return JSON.stringify(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Groups items by a key, keeping first-seen order of the groups and of the items in each. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()];
}
