// Time and severity wording shared by every surface.
import type { Notification } from "@herald/sdk";
import { t } from "./i18n/index.ts";

export type Variant = Notification["display"]["variant"];

/** How a session is named on every surface: its label, else harness and native id. */
export const sessionLabel = (s: Pick<NonNullable<Notification["session"]>, "label" | "harness" | "sessionId">): string =>
  s.label || `${s.harness} ${s.sessionId}`;

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

let rtf: Intl.RelativeTimeFormat | null = null;

/**
 * "3 minutes ago", "now" (Intl.RelativeTimeFormat in the browser's language). Never in the
 * future: the page's clock ticks every 15 s and the server's may run ahead, and something that
 * already happened cannot be "in 11 seconds".
 */
export function relativeTime(iso: string, now: number): string {
  rtf ??= new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  const seconds = Math.min(0, Math.round((Date.parse(iso) - now) / 1000));
  if (Math.abs(seconds) < 10) return rtf.format(0, "second");
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "second") return rtf.format(Math.round(seconds / size), unit);
  }
  return rtf.format(seconds, "second");
}

/**
 * When a producer last revised `n` ("updated 5 min ago"), or null when it never did (revision 1).
 * `updatedAt` also moves when the person sees, reads, receives or snoozes it, so it is the
 * revision's time only when none of the person's own times explains it; otherwise the time is not
 * known here and `at` is null (the card then says "updated" without a time rather than a wrong one).
 */
export function revision(
  n: Pick<Notification, "revision" | "updatedAt" | "createdAt" | "seenAt" | "readAt" | "deliveredAt" | "snoozedUntil" | "dismissedAt">,
): { at: string | null } | null {
  if (n.revision <= 1 || n.updatedAt === n.createdAt) return null;
  const own = [n.seenAt, n.readAt, n.deliveredAt, n.dismissedAt];
  // A snooze moves updatedAt too and leaves no time of its own.
  if (own.includes(n.updatedAt) || n.snoozedUntil !== null) return { at: null };
  return { at: n.updatedAt };
}

/** A full local date and time, for tooltips and the snooze confirmation. */
export function absoluteTime(iso: string | Date): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** 75 -> "1 min 15 s"; 3900 -> "1 h 5 min". */
export function duration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return m > 0 ? t.duration.hoursMinutes(h, m) : t.duration.hours(h);
  if (m > 0) return sec > 0 ? t.duration.minutesSeconds(m, sec) : t.duration.minutes(m);
  return t.duration.seconds(sec);
}

export const VARIANT_LABEL: Record<Variant, string> = t.variant;

/** The value for <input type="datetime-local"> of a local date. */
export function toLocalInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function inOneHour(now = new Date()): Date {
  return new Date(now.getTime() + 3600_000);
}

/** Tomorrow at 9:00 in the browser's time zone. */
export function tomorrowAtNine(now = new Date()): Date {
  const date = new Date(now);
  date.setDate(date.getDate() + 1);
  date.setHours(9, 0, 0, 0);
  return date;
}
