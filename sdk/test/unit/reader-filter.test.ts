// The reader controls as the dashboard's list filter: which mutes are in force at a moment, and when
// the next one ends (the open page wakes then, as the server lets that plugin through again).
import { describe, expect, it } from "vitest";
import { inForce, nextMuteEnd, readerFilter, settingsOf } from "../../src/ui/dashboard/reader-filter.ts";

const at = (iso: string) => Date.parse(iso);
const settings = settingsOf({
  mutedPlugins: ["deploys", "builds", "ci"],
  severityFloor: "WARNING",
  mutes: [
    { plugin: "deploys", until: "2026-12-05T10:00:00.000Z" },
    { plugin: "builds", until: null },
    { plugin: "ci", until: "2026-12-05T09:00:00.000Z" },
  ],
});

describe("reader controls over time", () => {
  it("leaves out only the mutes in force, a mute ending exactly at its until", () => {
    expect(inForce(settings, at("2026-12-05T08:00:00Z")).mutedPlugins).toEqual(["deploys", "builds", "ci"]);
    expect(inForce(settings, at("2026-12-05T09:00:00Z")).mutedPlugins).toEqual(["deploys", "builds"]);
    expect(inForce(settings, at("2026-12-05T11:00:00Z"))).toEqual({ mutedPlugins: ["builds"], severityFloor: "WARNING" });
    expect(readerFilter(inForce(settings, at("2026-12-05T11:00:00Z")))).toEqual({ excludePlugins: ["builds"], severities: ["WARNING", "ERROR"] });
  });

  it("names the next end still ahead, and none when every mute lasts until unmuted", () => {
    expect(nextMuteEnd(settings, at("2026-12-05T08:00:00Z"))).toBe(at("2026-12-05T09:00:00Z"));
    expect(nextMuteEnd(settings, at("2026-12-05T09:00:00Z"))).toBe(at("2026-12-05T10:00:00Z"));
    expect(nextMuteEnd(settings, at("2026-12-05T10:00:00Z"))).toBeNull();
  });

  it("reads a server's mutedPlugins alone as mutes until unmuted", () => {
    const old = settingsOf({ mutedPlugins: ["deploys"], severityFloor: "INFO" });
    expect(inForce(old, at("2030-01-01T00:00:00Z")).mutedPlugins).toEqual(["deploys"]);
    expect(nextMuteEnd(old, 0)).toBeNull();
  });
});
