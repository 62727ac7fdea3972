// Dates in remembered facts, table-driven on a fixed clock: Tuesday 10 March 2026, 12:00 UTC.
import { describe, expect, it } from "vitest";
import { daysUntil, type DateRule, extractDateRules, upcomingOccurrence } from "../../src/domain/date-rules.ts";

const now = new Date("2026-03-10T12:00:00Z");

const extraction: [string, DateRule[]][] = [
  ["My birthday is March 15th", [{ kind: "yearly", month: 3, day: 15 }]],
  ["anniversary: 15 March", [{ kind: "yearly", month: 3, day: 15 }]],
  // A date without a year is its next occurrence, once.
  ["dentist on 3/20", [{ kind: "once", date: "2026-03-20" }]],
  ["the 4th of July party", [{ kind: "once", date: "2026-07-04" }]],
  ["dinner on March 1st", [{ kind: "once", date: "2027-03-01" }]],
  ["Launch on 2026-04-02", [{ kind: "once", date: "2026-04-02" }]],
  // An explicit year means once, unless it is a birthday or an anniversary.
  ["Conference on March 12, 2027", [{ kind: "once", date: "2027-03-12" }]],
  ["I was born on March 15, 1985", [{ kind: "yearly", month: 3, day: 15 }]],
  ["Our wedding anniversary is June 2, 2019", [{ kind: "yearly", month: 6, day: 2 }]],
  // A recurring day of the week comes back weekly (source document 000: "every Tuesday").
  ["Team sync every Tuesday", [{ kind: "weekly", weekday: 2 }]],
  ["Standup on Mondays", [{ kind: "weekly", weekday: 1 }]],
  ["Trash pickup each Thursday", [{ kind: "weekly", weekday: 4 }]],
  ["Payroll closes every friday at noon", [{ kind: "weekly", weekday: 5 }]],
  [
    "Piano lessons on Saturdays and Sundays",
    [
      { kind: "weekly", weekday: 6 },
      { kind: "weekly", weekday: 0 },
    ],
  ],
  // False positives that stay silent: preferences and the person's own routines.
  ["I call mom on Sundays", []],
  ["each Friday I run", []],
  ["I walk the dog every Tuesday", []],
  ["We eat out every Saturday", []],
  ["Bob prefers deploys after 16:00 on Fridays", []],
  ["Bob prefers deploys on Friday", []],
  ["Ada usually works from home on Mondays", []],
  ["likes quiet Wednesdays", []],
  ["never schedules meetings on Fridays", []],
  ["typically reviews code every Thursday", []],
  ["meet next Friday", [{ kind: "once", date: "2026-03-20" }]],
  ["deadline tomorrow", [{ kind: "once", date: "2026-03-11" }]],
  ["I like green tea", []],
  [
    "Sync every Monday, review on 2026-03-12",
    [
      { kind: "weekly", weekday: 1 },
      { kind: "once", date: "2026-03-12" },
    ],
  ],
];

describe("extractDateRules", () => {
  it.each(extraction)("%s", (text, rules) => {
    expect(extractDateRules(text, now)).toEqual(rules);
  });
});

const upcoming: [string, DateRule, number, string | null][] = [
  ["yearly date 5 days ahead", { kind: "yearly", month: 3, day: 15 }, 7, "2026-03-15"],
  ["yearly date today", { kind: "yearly", month: 3, day: 10 }, 7, "2026-03-10"],
  ["yearly date just past comes next year, out of range", { kind: "yearly", month: 3, day: 9 }, 7, null],
  ["yearly date past recurs next year within a long lead", { kind: "yearly", month: 3, day: 9 }, 366, "2027-03-09"],
  ["yearly date beyond the lead", { kind: "yearly", month: 3, day: 18 }, 7, null],
  ["yearly date exactly at the lead", { kind: "yearly", month: 3, day: 17 }, 7, "2026-03-17"],
  ["February 29th in a common year", { kind: "yearly", month: 2, day: 29 }, 366, "2027-02-28"],
  ["once, ahead", { kind: "once", date: "2026-03-12" }, 7, "2026-03-12"],
  ["once, past", { kind: "once", date: "2026-03-01" }, 7, null],
  ["zero lead: only today", { kind: "once", date: "2026-03-10" }, 0, "2026-03-10"],
  // Weekly: the next such weekday (today included), once per occurrence within the lead.
  ["weekly, today (a Tuesday)", { kind: "weekly", weekday: 2 }, 7, "2026-03-10"],
  ["weekly, tomorrow", { kind: "weekly", weekday: 3 }, 7, "2026-03-11"],
  ["weekly, six days ahead", { kind: "weekly", weekday: 1 }, 7, "2026-03-16"],
  ["weekly, beyond a short lead", { kind: "weekly", weekday: 1 }, 3, null],
  ["weekly, zero lead on another day", { kind: "weekly", weekday: 5 }, 0, null],
];

describe("upcomingOccurrence", () => {
  it.each(upcoming)("%s", (_name, rule, lead, expected) => {
    expect(upcomingOccurrence(rule, now, lead)).toBe(expected);
  });

  it("counts whole days from the UTC date", () => {
    expect(daysUntil("2026-03-10", now)).toBe(0);
    expect(daysUntil("2026-03-11", new Date("2026-03-10T23:59:00Z"))).toBe(1);
  });
});

// "Today" and "tomorrow" are the person's: late evening in Los Angeles is already the next day in
// UTC, early morning in Tokyo still the previous one.
const zoned: [string, string, string, DateRule[], string | null, number][] = [
  // [zone, now (UTC), fact, rules, upcoming with a 7-day lead, days until it]
  ["America/Los_Angeles", "2026-03-11T05:30:00Z", "deadline tomorrow", [{ kind: "once", date: "2026-03-11" }], "2026-03-11", 1],
  ["UTC", "2026-03-11T05:30:00Z", "deadline tomorrow", [{ kind: "once", date: "2026-03-12" }], "2026-03-12", 1],
  ["Asia/Tokyo", "2026-03-10T20:00:00Z", "review today", [{ kind: "once", date: "2026-03-11" }], "2026-03-11", 0],
  ["Europe/Berlin", "2026-03-10T23:30:00Z", "My birthday is March 11th", [{ kind: "yearly", month: 3, day: 11 }], "2026-03-11", 0],
];

describe("the person's time zone", () => {
  it.each(zoned)("%s at %s: %s", (zone, at, text, rules, next, days) => {
    const when = new Date(at);
    expect(extractDateRules(text, when, zone)).toEqual(rules);
    const date = upcomingOccurrence(rules[0]!, when, 7, zone);
    expect(date).toBe(next);
    expect(daysUntil(date!, when, zone)).toBe(days);
  });

  it("keeps yesterday out in the person's zone though it is still today in UTC", () => {
    // 00:30 on 11 March in Berlin is 23:30 on 10 March in UTC.
    const when = new Date("2026-03-10T23:30:00Z");
    expect(upcomingOccurrence({ kind: "once", date: "2026-03-10" }, when, 7, "UTC")).toBe("2026-03-10");
    expect(upcomingOccurrence({ kind: "once", date: "2026-03-10" }, when, 7, "Europe/Berlin")).toBeNull();
  });
});
