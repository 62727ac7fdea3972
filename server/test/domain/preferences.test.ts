// Reader controls as pure rules: quiet hours read in the person's zone across midnight and
// daylight-saving changes, mute and floor before quiet mode, ERROR through quiet hours.
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/domain/errors.ts";
import { defaultPreferences, holdsNow, inQuietHours, type Preferences, pushVerdict, validatePreferencesUpdate } from "../../src/domain/preferences.ts";

const berlin = { start: "22:00", end: "07:00", timeZone: "Europe/Berlin", allowErrors: true };

describe("quiet hours", () => {
  // Berlin: CET (UTC+1) until 2026-03-29 01:00 UTC, CEST (UTC+2) until 2026-10-25 01:00 UTC.
  const table: [string, string, boolean][] = [
    ["winter evening before start", "2026-01-15T20:59:00Z", false], // 21:59 CET
    ["winter start", "2026-01-15T21:00:00Z", true], // 22:00 CET
    ["winter after midnight", "2026-01-15T23:30:00Z", true], // 00:30 CET
    ["winter last minute", "2026-01-16T05:59:00Z", true], // 06:59 CET
    ["winter end", "2026-01-16T06:00:00Z", false], // 07:00 CET
    ["night clocks go forward, 06:30 CEST", "2026-03-29T04:30:00Z", true],
    ["night clocks go forward, 07:00 CEST (06:00 UTC, one hour earlier than in winter)", "2026-03-29T05:00:00Z", false],
    ["night clocks go forward, 03:30 CEST right after the gap", "2026-03-29T01:30:00Z", true],
    ["summer start is 20:00 UTC", "2026-07-01T20:00:00Z", true],
    ["summer 21:59 CEST", "2026-07-01T19:59:00Z", false],
    ["night clocks go back, 02:30 CEST (first pass)", "2026-10-25T00:30:00Z", true],
    ["night clocks go back, 02:30 CET (second pass)", "2026-10-25T01:30:00Z", true],
    ["night clocks go back, 07:00 CET", "2026-10-25T06:00:00Z", false],
    ["night clocks go back, 06:59 CET", "2026-10-25T05:59:00Z", true],
  ];
  for (const [name, at, quiet] of table) {
    it(`${name}: ${quiet ? "quiet" : "not quiet"}`, () => {
      expect(inQuietHours(berlin, new Date(at))).toBe(quiet);
    });
  }

  it("a schedule within one day does not wrap", () => {
    const lunch = { start: "12:00", end: "13:00", timeZone: "UTC", allowErrors: false };
    expect(inQuietHours(lunch, new Date("2026-05-01T12:30:00Z"))).toBe(true);
    expect(inQuietHours(lunch, new Date("2026-05-01T23:30:00Z"))).toBe(false);
  });

  it("another zone, another instant: Tokyo has no daylight saving", () => {
    const tokyo = { ...berlin, timeZone: "Asia/Tokyo" };
    expect(inQuietHours(tokyo, new Date("2026-07-01T13:30:00Z"))).toBe(true); // 22:30 JST
    expect(inQuietHours(tokyo, new Date("2026-07-01T12:30:00Z"))).toBe(false); // 21:30 JST
  });
});

describe("push verdicts", () => {
  const night = new Date("2026-01-15T23:00:00Z"); // 00:00 in Berlin
  const day = new Date("2026-01-15T12:00:00Z");
  const prefs = (over: Partial<Preferences>): Preferences => ({ ...defaultPreferences, ...over });
  const n = (severity: "INFO" | "SUCCESS" | "WARNING" | "ERROR", plugin = "ci") => ({ severity, source: { plugin, subsystem: null } });

  it("mutes a muted plugin and anything below the floor, even in quiet mode", () => {
    expect(pushVerdict(prefs({ mutedPlugins: ["ci"], quietMode: true }), n("ERROR"), day)).toBe("mute");
    expect(pushVerdict(prefs({ severityFloor: "WARNING" }), n("SUCCESS"), day)).toBe("mute");
    expect(pushVerdict(prefs({ severityFloor: "WARNING" }), n("WARNING"), day)).toBe("push");
    expect(pushVerdict(prefs({ mutedPlugins: ["deploy"] }), n("INFO"), day)).toBe("push");
  });

  it("holds in quiet mode and in quiet hours; ERROR passes quiet hours only when allowed", () => {
    expect(pushVerdict(prefs({ quietMode: true }), n("ERROR"), day)).toBe("hold");
    expect(pushVerdict(prefs({ quietHours: berlin }), n("WARNING"), night)).toBe("hold");
    expect(pushVerdict(prefs({ quietHours: berlin }), n("ERROR"), night)).toBe("push");
    expect(pushVerdict(prefs({ quietHours: { ...berlin, allowErrors: false } }), n("ERROR"), night)).toBe("hold");
    expect(pushVerdict(prefs({ quietHours: berlin }), n("INFO"), day)).toBe("push");
    expect(holdsNow(prefs({ quietHours: berlin }), night)).toBe(true);
    expect(holdsNow(prefs({ quietHours: berlin }), day)).toBe(false);
  });
});

describe("updatePreferences input", () => {
  const fieldOf = (input: unknown) => {
    try {
      validatePreferencesUpdate(defaultPreferences, input);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).field;
    }
  };

  it("names the offending field", () => {
    expect(fieldOf({ quietHours: { start: "24:00", end: "07:00", timeZone: "UTC" } })).toBe("input.quietHours.start");
    expect(fieldOf({ quietHours: { start: "22:00", end: "7:00", timeZone: "UTC" } })).toBe("input.quietHours.end");
    expect(fieldOf({ quietHours: { start: "22:00", end: "22:00", timeZone: "UTC" } })).toBe("input.quietHours.end");
    expect(fieldOf({ quietHours: { start: "22:00", end: "07:00", timeZone: "Mars/Olympus" } })).toBe("input.quietHours.timeZone");
    expect(fieldOf({ mutedPlugins: [""] })).toBe("input.mutedPlugins.0");
    expect(fieldOf({ mutedPlugins: Array.from({ length: 101 }, (_, i) => `p${i}`) })).toBe("input.mutedPlugins");
    expect(fieldOf({ severityFloor: "LOUD" })).toBe("input.severityFloor");
  });

  it("keeps what is absent, replaces what is given, removes quiet hours on null", () => {
    const set = validatePreferencesUpdate(defaultPreferences, {
      mutedPlugins: ["ci", "ci", "deploy"],
      quietHours: { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" },
    });
    expect(set).toEqual({ quietMode: false, mutedPlugins: ["ci", "deploy"], severityFloor: "INFO", quietHours: { ...berlin, allowErrors: true } });
    const floor = validatePreferencesUpdate(set, { severityFloor: "WARNING" });
    expect(floor.mutedPlugins).toEqual(["ci", "deploy"]);
    expect(floor.quietHours).not.toBeNull();
    expect(validatePreferencesUpdate(floor, { quietHours: null }).quietHours).toBeNull();
  });
});
