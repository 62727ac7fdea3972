// The person's reader controls as a list filter. The event stream never pushes what a muted
// plugin or a severity below the floor publishes, so a live view that listed those would show
// fewer records live than after a reload; with the controls in its filter, its list, its counts
// and the badge equal what the server lists for the same filter, live and after a reload.
import type { NotificationFilter, Preferences } from "@herald/sdk";

type Severity = Preferences["severityFloor"];
const RISING: readonly Severity[] = ["INFO", "SUCCESS", "WARNING", "ERROR"];

export type ReaderControls = Pick<Preferences, "mutedPlugins" | "severityFloor">;

/** The controls as the server last stated them: every mute with its end (null: until unmuted). */
export type ReaderSettings = { mutes: readonly { plugin: string; until: string | null }[]; severityFloor: Severity };

/** A server older than timed mutes sends `mutedPlugins` only: each of them lasts until unmuted. */
export function settingsOf(preferences: Pick<Preferences, "mutedPlugins" | "severityFloor"> & { mutes?: ReaderSettings["mutes"] }): ReaderSettings {
  return {
    mutes: preferences.mutes ?? preferences.mutedPlugins.map((plugin) => ({ plugin, until: null })),
    severityFloor: preferences.severityFloor,
  };
}

/** Whether a mute still mutes at `now` (ms since the epoch), as the server decides it: it ends at its `until`. */
export function muteInForce(mute: ReaderSettings["mutes"][number], now: number): boolean {
  return mute.until === null || Date.parse(mute.until) > now;
}

/** What is muted at `now` (ms since the epoch). */
export function inForce(settings: ReaderSettings, now: number): ReaderControls {
  return {
    mutedPlugins: settings.mutes.filter((mute) => muteInForce(mute, now)).map((mute) => mute.plugin),
    severityFloor: settings.severityFloor,
  };
}

/** The earliest end of a mute still in force at `now` (null: none ends by itself). */
export function nextMuteEnd(settings: ReaderSettings, now: number): number | null {
  let next: number | null = null;
  for (const mute of settings.mutes) {
    if (mute.until === null) continue;
    const end = Date.parse(mute.until);
    if (end > now && (next === null || end < next)) next = end;
  }
  return next;
}

export function readerFilter(controls: ReaderControls): NotificationFilter {
  const filter: NotificationFilter = {};
  if (controls.mutedPlugins.length > 0) filter.excludePlugins = [...controls.mutedPlugins].sort();
  const floor = RISING.indexOf(controls.severityFloor);
  if (floor > 0) filter.severities = RISING.slice(floor);
  return filter;
}

export function sameFilter(a: NotificationFilter, b: NotificationFilter): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
