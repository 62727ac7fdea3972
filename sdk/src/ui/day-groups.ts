// An inbox grouped by day, in the browser's time zone: "Today", "Yesterday", then dates.
// Records are grouped by the day they arrived, the order the list is in.
import type { Notification } from "@herald/sdk";
import { t } from "./i18n/index.ts";

export interface DayGroup {
  key: string;
  label: string;
  items: Notification[];
}

const dayKey = (date: Date) => `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`;

export function dayLabel(date: Date, now: Date): string {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const day = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  // Calendar days, not 24-hour spans (a daylight-saving change makes a day 23 or 25 hours).
  const daysAgo = Math.round((today.getTime() - day.getTime()) / 86_400_000);
  if (daysAgo <= 0) return t.feed.today;
  if (daysAgo === 1) return t.feed.yesterday;
  const options: Intl.DateTimeFormatOptions = { weekday: "long", day: "numeric", month: "long" };
  if (date.getFullYear() !== now.getFullYear()) options.year = "numeric";
  return date.toLocaleDateString(undefined, options);
}

/** Consecutive records of one day form a group; the list's order is kept. */
export function groupByDay(items: readonly Notification[], now: number): DayGroup[] {
  const groups: DayGroup[] = [];
  const reference = new Date(now);
  for (const n of items) {
    const created = new Date(n.createdAt);
    const key = dayKey(created);
    const last = groups.at(-1);
    if (last?.key === key) last.items.push(n);
    else groups.push({ key, label: dayLabel(created, reference), items: [n] });
  }
  return groups;
}
