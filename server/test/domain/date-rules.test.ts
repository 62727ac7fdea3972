// Dates in remembered facts, table-driven on a fixed clock: Tuesday 10 March 2026, 12:00 UTC.
import { describe, expect, it } from "vitest";
import { daysUntil, type DateRule, extractDateRules, upcomingOccurrence } from "../../src/domain/date-rules.ts";

const now = new Date("2026-03-10T12:00:00Z");

const extraction: [string, DateRule[]][] = [
  ["My birthday is March 15th", [{ kind: "yearly", month: 3, day: 15 }]],
  ["anniversary: 15 March", [{ kind: "yearly", month: 3, day: 15 }]],
  ["dentist on 3/20", [{ kind: "yearly", month: 3, day: 20 }]],
  ["the 4th of July party", [{ kind: "yearly", month: 7, day: 4 }]],
  ["Launch on 2026-04-02", [{ kind: "once", date: "2026-04-02" }]],
  ["I was born on March 15, 1985", [{ kind: "yearly", month: 3, day: 15 }]],
  ["Team sync every Tuesday", [{ kind: "weekly", weekday: 2 }]],
  ["I call mom on Sundays", [{ kind: "weekly", weekday: 0 }]],
  ["each Friday I run", [{ kind: "weekly", weekday: 5 }]],
  ["meet next Friday", [{ kind: "once", date: "2026-03-20" }]],
  ["deadline tomorrow", [{ kind: "once", date: "2026-03-11" }]],
  ["I like green tea", []],
  ["Sync every Monday, review on 2026-03-12", [{ kind: "weekly", weekday: 1 }, { kind: "once", date: "2026-03-12" }]],
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
  ["weekly, today's weekday is today", { kind: "weekly", weekday: 2 }, 7, "2026-03-10"],
  ["weekly, Sunday", { kind: "weekly", weekday: 0 }, 7, "2026-03-15"],
  ["weekly, beyond a short lead", { kind: "weekly", weekday: 0 }, 2, null],
  ["zero lead: only today", { kind: "once", date: "2026-03-10" }, 0, "2026-03-10"],
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
