// Dates in a person's remembered facts, turned into rules once (when the fact is stored) so the
// periodic scanner evaluates rules instead of parsing text on every cycle. Pure: no I/O, and
// every "now" comes from the caller.
import * as chrono from "chrono-node";

/** Bump when extraction changes: the scanner re-extracts facts written by an older version. */
export const DATE_RULES_VERSION = 3;

/**
 * A day worth a reminder. A recurring day of the week ("every Tuesday", "on Sundays") comes back
 * weekly; a habit or a preference about a weekday ("prefers deploys on Fridays", "usually runs on
 * Mondays") is no date: no rule.
 */
export type DateRule =
  /** One day: an explicit date, a date without a year (its next occurrence), or a relative one ("next Friday"). */
  | { kind: "once"; date: string }
  /** A birthday or an anniversary: the day comes back every year. */
  | { kind: "yearly"; month: number; day: number }
  /** "every Tuesday", "on Sundays": the day of the week (0 Sunday ... 6 Saturday) comes back every week. */
  | { kind: "weekly"; weekday: number };

const MAX_RULES = 10;
const PLURAL_WEEKDAY = /\b(mon|tues|wednes|thurs|fri|satur|sun)days\b/gi;
const RECURRING_BEFORE = /\b(every|each)\s+$/i;
const RECURS_YEARLY = /\b(birthday|born|anniversary|annually|every year|each year)\b/i;
const PREFERENCE = /\b(prefers?|preferred|likes?|usually|always|typically|tends? to|never)\b/i;
/** A recurring weekday in a first-person sentence is the person's own routine ("I run on Fridays"), not an appointment. */
const FIRST_PERSON = /(^|[^A-Za-z'])(I|I'm|I've|we|We|we're|We're)(?![A-Za-z'])/;

/**
 * The dates a fact mentions, as rules. `reference` is when the fact was said (for "tomorrow",
 * "next Friday"), read as wall-clock time in the person's `timeZone`.
 */
export function extractDateRules(text: string, reference: Date, timeZone = "UTC"): DateRule[] {
  // chrono reads only the singular weekday; "on Sundays" means every Sunday. The replacement
  // keeps every offset ("Sundays" -> "Sunday "), so result indexes still point into `text`.
  const plurals = new Set<number>();
  const singular = text.replace(PLURAL_WEEKDAY, (_match, stem: string, offset: number) => {
    plurals.add(offset);
    return `${stem}day `;
  });
  const rules = new Map<string, DateRule>();
  const reading = { instant: reference, timezone: offsetMinutes(reference, timeZone) };
  for (const result of chrono.parse(singular, reading, { forwardDate: true })) {
    const end = result.index + result.text.length;
    const plural = [...plurals].some((offset) => offset >= result.index && offset < end);
    const recurring = plural || RECURRING_BEFORE.test(text.slice(0, result.index));
    const rule = ruleOf(result, recurring, PREFERENCE.test(text), FIRST_PERSON.test(text), text);
    if (rule) rules.set(JSON.stringify(rule), rule);
    if (rules.size >= MAX_RULES) break;
  }
  return [...rules.values()];
}

function ruleOf(result: chrono.ParsedResult, recurring: boolean, preference: boolean, routine: boolean, text: string): DateRule | null {
  const start = result.start;
  const month = start.get("month");
  const day = start.get("day");
  const year = start.get("year");
  if (!month || !day || !year) return null;
  const habit = recurring || preference;
  // A weekday alone: weekly when it recurs ("every Tuesday", "on Sundays"), a specific day when
  // it does not ("next Friday"), nothing when it is a preference or the person's own routine
  // ("prefers deploys on Fridays", "I walk the dog every Tuesday").
  if (start.isCertain("weekday") && !start.isCertain("day")) {
    if (preference || (recurring && routine)) return null;
    return recurring ? { kind: "weekly", weekday: start.get("weekday")! } : { kind: "once", date: isoDate(year, month, day) };
  }
  // "tomorrow", "today": a day chrono implies from the reference, never a habit's.
  if (!start.isCertain("day") && !start.isCertain("month")) return habit ? null : { kind: "once", date: isoDate(year, month, day) };
  if (!start.isCertain("month") || !start.isCertain("day")) return null;
  if (RECURS_YEARLY.test(text)) return { kind: "yearly", month, day };
  // An explicit year means once; without one, the next occurrence (chrono reads forward).
  return { kind: "once", date: isoDate(year, month, day) };
}

/** The zone a person's "today" is judged in: their quiet hours' zone, else the server's setting. */
export function personTimeZone(quietHours: { timeZone: string } | null | undefined, fallback: string): string {
  return quietHours?.timeZone || fallback;
}

/** The zone's offset from UTC at `instant`, in minutes (what chrono's reference takes). */
function offsetMinutes(instant: Date, timeZone: string): number {
  const local = localDate(instant, timeZone);
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  return Math.round((wall - Math.floor(instant.getTime() / 60_000) * 60_000) / 60_000);
}

const dateParts = new Map<string, Intl.DateTimeFormat>();
/** Wall-clock date and time of `instant` in `timeZone`, through the platform's zone data. */
function localDate(instant: Date, timeZone: string) {
  let format = dateParts.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
    });
    dateParts.set(timeZone, format);
  }
  const part = (type: string) => Number(format.formatToParts(instant).find((p) => p.type === type)!.value);
  return { year: part("year"), month: part("month"), day: part("day"), hour: part("hour"), minute: part("minute") };
}

/** Midnight UTC of `now`'s date in `timeZone`: the day arithmetic below counts in whole UTC days. */
function today(now: Date, timeZone: string): number {
  const local = localDate(now, timeZone);
  return Date.UTC(local.year, local.month - 1, local.day);
}

/**
 * The next day on or after today in the person's `timeZone` the rule falls on, if it is at most
 * `leadDays` away. One occurrence per rule at a time.
 */
export function upcomingOccurrence(rule: DateRule, now: Date, leadDays: number, timeZone = "UTC"): string | null {
  const day = today(now, timeZone);
  const next = nextOccurrence(rule, day);
  if (next === null || next < day || next > day + leadDays * DAY) return null;
  return new Date(next).toISOString().slice(0, 10);
}

/** Whole days from today in `timeZone` to an ISO date (0 today, 1 tomorrow). */
export function daysUntil(date: string, now: Date, timeZone = "UTC"): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - today(now, timeZone)) / DAY);
}

const DAY = 86_400_000;

function nextOccurrence(rule: DateRule, today: number): number | null {
  switch (rule.kind) {
    default:
      return null; // a kind an older version stored (re-extracted by the scanner)
    case "once":
      return Date.parse(`${rule.date}T00:00:00Z`);
    case "weekly":
      return today + ((((rule.weekday - new Date(today).getUTCDay()) % 7) + 7) % 7) * DAY;
    case "yearly": {
      const year = new Date(today).getUTCFullYear();
      const thisYear = yearlyIn(rule, year);
      return thisYear >= today ? thisYear : yearlyIn(rule, year + 1);
    }
  }
}

/** February 29th falls on the 28th in a common year. */
function yearlyIn(rule: { month: number; day: number }, year: number): number {
  const lastDay = new Date(Date.UTC(year, rule.month, 0)).getUTCDate();
  return Date.UTC(year, rule.month - 1, Math.min(rule.day, lastDay));
}

function isoDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

export function serializeDateRules(rules: DateRule[]): string {
  return JSON.stringify(rules);
}

/** Rules as stored; anything unreadable counts as no dates rather than failing a scan. */
export function parseDateRules(stored: string): DateRule[] {
  try {
    const value = JSON.parse(stored) as unknown;
    return Array.isArray(value)
      ? (value as DateRule[]).filter(
          (r) => r?.kind === "once" || r?.kind === "yearly" || (r?.kind === "weekly" && Number.isInteger(r.weekday) && r.weekday >= 0 && r.weekday <= 6),
        )
      : [];
  } catch {
    return [];
  }
}
