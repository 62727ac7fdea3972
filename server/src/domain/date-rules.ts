// Dates in a person's remembered facts, turned into rules once (when the fact is stored) so the
// periodic scanner evaluates rules instead of parsing text on every cycle. Pure: no I/O, and
// every "now" comes from the caller.
import * as chrono from "chrono-node";

/** Bump when extraction changes: the scanner re-extracts facts written by an older version. */
export const DATE_RULES_VERSION = 1;

export type DateRule =
  /** One day (an ISO date, or a relative one such as "next Friday" read against when it was said). */
  | { kind: "once"; date: string }
  /** A day that comes back every year: a date without a year, or a birthday or anniversary. */
  | { kind: "yearly"; month: number; day: number }
  /** "every Tuesday", "on Sundays"; weekday 0 is Sunday. */
  | { kind: "weekly"; weekday: number };

const MAX_RULES = 10;
const PLURAL_WEEKDAY = /\b(mon|tues|wednes|thurs|fri|satur|sun)days\b/gi;
const RECURRING_BEFORE = /\b(every|each)\s+$/i;
const RECURS_YEARLY = /\b(birthday|born|anniversary|annually|every year|each year)\b/i;

/** The dates a fact mentions, as rules. `reference` is when the fact was said (for "next Friday"). */
export function extractDateRules(text: string, reference: Date): DateRule[] {
  // chrono reads only the singular weekday; "on Sundays" means every Sunday. The replacement
  // keeps every offset ("Sundays" -> "Sunday "), so result indexes still point into `text`.
  const plurals = new Set<number>();
  const singular = text.replace(PLURAL_WEEKDAY, (_match, stem: string, offset: number) => {
    plurals.add(offset);
    return `${stem}day `;
  });
  const rules = new Map<string, DateRule>();
  for (const result of chrono.parse(singular, { instant: reference, timezone: "UTC" })) {
    const end = result.index + result.text.length;
    const plural = [...plurals].some((offset) => offset >= result.index && offset < end);
    const rule = ruleOf(result, plural || RECURRING_BEFORE.test(text.slice(0, result.index)), text);
    if (rule) rules.set(JSON.stringify(rule), rule);
    if (rules.size >= MAX_RULES) break;
  }
  return [...rules.values()];
}

function ruleOf(result: chrono.ParsedResult, recurring: boolean, text: string): DateRule | null {
  const start = result.start;
  const month = start.get("month");
  const day = start.get("day");
  const year = start.get("year");
  if (start.isCertain("weekday") && !start.isCertain("day")) {
    if (recurring) return { kind: "weekly", weekday: start.get("weekday")! };
    return year && month && day ? { kind: "once", date: isoDate(year, month, day) } : null;
  }
  if (!start.isCertain("month") || !start.isCertain("day") || !month || !day) return null;
  if (!start.isCertain("year") || RECURS_YEARLY.test(text)) return { kind: "yearly", month, day };
  return { kind: "once", date: isoDate(year!, month, day) };
}

/**
 * The next day on or after `now` (UTC) the rule falls on, if it is at most `leadDays` away.
 * One occurrence per rule at a time: a weekly rule never announces two weeks at once.
 */
export function upcomingOccurrence(rule: DateRule, now: Date, leadDays: number): string | null {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const next = nextOccurrence(rule, today);
  if (next === null || next < today || next > today + leadDays * DAY) return null;
  return new Date(next).toISOString().slice(0, 10);
}

/** Whole days from `now`'s UTC date to an ISO date (0 today, 1 tomorrow). */
export function daysUntil(date: string, now: Date): number {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((Date.parse(`${date}T00:00:00Z`) - today) / DAY);
}

const DAY = 86_400_000;

function nextOccurrence(rule: DateRule, today: number): number | null {
  switch (rule.kind) {
    case "once":
      return Date.parse(`${rule.date}T00:00:00Z`);
    case "weekly": {
      const weekday = new Date(today).getUTCDay();
      return today + ((rule.weekday - weekday + 7) % 7) * DAY;
    }
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
    return Array.isArray(value) ? (value as DateRule[]) : [];
  } catch {
    return [];
  }
}
