// Reader controls as pure rules: quiet hours read in the person's zone across midnight and
// daylight-saving changes, mute and floor before quiet mode, ERROR through quiet hours.
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/domain/errors.ts";
import {
  defaultPreferences,
  holdsNow,
  inQuietHours,
  maxMutedPlugins,
  mutedPluginsNow,
  type Preferences,
  pushVerdict,
  validatePreferencesUpdate,
  withMute,
  withoutMute,
} from "../../src/domain/preferences.ts";

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
    expect(pushVerdict(prefs({ mutes: [{ plugin: "ci", until: null }], quietMode: true }), n("ERROR"), day)).toBe("mute");
    expect(pushVerdict(prefs({ severityFloor: "WARNING" }), n("SUCCESS"), day)).toBe("mute");
    expect(pushVerdict(prefs({ severityFloor: "WARNING" }), n("WARNING"), day)).toBe("push");
    expect(pushVerdict(prefs({ mutes: [{ plugin: "deploy", until: null }] }), n("INFO"), day)).toBe("push");
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
      validatePreferencesUpdate(defaultPreferences, input, new Date());
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
    const now = new Date();
    const set = validatePreferencesUpdate(
      defaultPreferences,
      { mutedPlugins: ["ci", "ci", "deploy"], quietHours: { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" } },
      now,
    );
    expect(set).toEqual({
      quietMode: false,
      mutes: [
        { plugin: "ci", until: null },
        { plugin: "deploy", until: null },
      ],
      severityFloor: "INFO",
      quietHours: { ...berlin, allowErrors: true },
    });
    const floor = validatePreferencesUpdate(set, { severityFloor: "WARNING" }, now);
    expect(mutedPluginsNow(floor, now)).toEqual(["ci", "deploy"]);
    expect(floor.quietHours).not.toBeNull();
    expect(validatePreferencesUpdate(floor, { quietHours: null }, now).quietHours).toBeNull();
  });
});

describe("mutes with an end", () => {
  const now = new Date("2026-01-15T12:00:00Z");
  const hour = new Date(now.getTime() + 3_600_000);
  const n = (plugin: string) => ({ severity: "ERROR" as const, source: { plugin, subsystem: null } });
  const fieldOf = (run: () => unknown) => {
    try {
      run();
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).field;
    }
  };

  it("mutes until the end, excluded, then no longer: no write needed", () => {
    const muted = withMute(defaultPreferences, "ci", hour, now);
    expect(pushVerdict(muted, n("ci"), now)).toBe("mute");
    expect(pushVerdict(muted, n("ci"), new Date(hour.getTime() - 1))).toBe("mute");
    expect(pushVerdict(muted, n("ci"), hour)).toBe("push");
    expect(mutedPluginsNow(muted, now)).toEqual(["ci"]);
    expect(mutedPluginsNow(muted, hour)).toEqual([]);
    expect(pushVerdict(withMute(defaultPreferences, "ci", null, now), n("ci"), new Date("2099-01-01T00:00:00Z"))).toBe("mute");
  });

  it("a second mute of a plugin replaces the first; unmute ends it; ended mutes are dropped on write", () => {
    const forGood = withMute(withMute(defaultPreferences, "ci", hour, now), "ci", null, now);
    expect(forGood.mutes).toEqual([{ plugin: "ci", until: null }]);
    expect(withoutMute(forGood, "ci", now).mutes).toEqual([]);
    expect(withoutMute(forGood, "other", now).mutes).toEqual([{ plugin: "ci", until: null }]);
    const later = new Date(hour.getTime() + 1);
    expect(withMute(withMute(defaultPreferences, "ci", hour, now), "deploy", null, later).mutes).toEqual([{ plugin: "deploy", until: null }]);
  });

  it("mutedPlugins written by an older client keeps the end of a mute already set", () => {
    const muted = withMute(defaultPreferences, "ci", hour, now);
    const next = validatePreferencesUpdate(muted, { mutedPlugins: ["ci", "deploy"] }, now);
    expect(next.mutes).toEqual([
      { plugin: "ci", until: hour },
      { plugin: "deploy", until: null },
    ]);
    expect(validatePreferencesUpdate(next, { mutedPlugins: [] }, now).mutes).toEqual([]);
  });

  it("refuses an end not in the future, a bad plugin name and more than the bound, naming the field", () => {
    expect(fieldOf(() => withMute(defaultPreferences, "ci", now, now))).toBe("until");
    expect(fieldOf(() => withMute(defaultPreferences, "ci", "tomorrow", now))).toBe("until");
    expect(fieldOf(() => withMute(defaultPreferences, "  ", null, now))).toBe("plugin");
    expect(fieldOf(() => withMute(defaultPreferences, "x".repeat(1000), null, now))).toBe("plugin");
    let full = defaultPreferences;
    for (let i = 0; i < maxMutedPlugins; i++) full = withMute(full, `p${i}`, null, now);
    expect(fieldOf(() => withMute(full, "one-more", null, now))).toBe("plugin");
    // Re-muting one already muted is no new mute, and ended mutes do not count.
    expect(fieldOf(() => withMute(full, "p0", hour, now))).toBeNull();
    const ending = withMute(withoutMute(full, "p0", now), "p0", hour, now);
    expect(fieldOf(() => withMute(ending, "one-more", null, new Date(hour.getTime() + 1)))).toBeNull();
  });
});
