// A person's reader controls: quiet mode, muted source plugins (each until a time or until
// unmuted), a severity floor and a daily quiet-hours schedule. They decide only what is pushed live; everything is stored and listed.
// Pure: the clock's "now" is passed in. Protocol: docs/event-stream.md, "Reader controls".
import { z } from "zod";
import { type Severity, Severities } from "./enums.ts";
import { ValidationError } from "./errors.ts";
import { limits } from "./limits.ts";
import type { NotificationRecord } from "./notification.ts";
import { parse, validatePluginName } from "./validation.ts";

export interface QuietHours {
  /** Local wall-clock times "HH:MM" (24 h); a start after the end spans midnight. */
  start: string;
  end: string;
  /** IANA zone the times are read in, e.g. Europe/Berlin. */
  timeZone: string;
  /** ERROR notifications are pushed during quiet hours (default true). */
  allowErrors: boolean;
}

/** One muted source plugin: muted until `until`, or until unmuted when null. */
export interface PluginMute {
  plugin: string;
  until: Date | null;
}

export interface Preferences {
  quietMode: boolean;
  /** As stored: may still hold mutes that have ended (nothing rewrites a row when one ends); read them through mutesInForce. */
  mutes: PluginMute[];
  severityFloor: Severity;
  quietHours: QuietHours | null;
}

export const defaultPreferences: Preferences = { quietMode: false, mutes: [], severityFloor: "INFO", quietHours: null };

/** Muted plugins a person may list (each a source plugin name). */
export const maxMutedPlugins = 100;

/**
 * The one rule of when a mute mutes: from when it is set until `until` (excluded), or for good
 * when it has none. Read with the server's clock, so a mute ends by itself, with no write.
 */
export function muteInForce(mute: PluginMute, now: Date): boolean {
  return mute.until === null || mute.until.getTime() > now.getTime();
}

export function mutesInForce(preferences: Preferences, now: Date): PluginMute[] {
  return preferences.mutes.filter((mute) => muteInForce(mute, now));
}

/** The plugins muted now: what `mutedPlugins` lists and a list filter following the mutes leaves out. */
export function mutedPluginsNow(preferences: Preferences, now: Date): string[] {
  return mutesInForce(preferences, now).map((mute) => mute.plugin);
}

export function isMuted(preferences: Preferences, plugin: string, now: Date): boolean {
  return preferences.mutes.some((mute) => mute.plugin === plugin && muteInForce(mute, now));
}

/**
 * Mutes `plugin` until `until` (null: until unmuted), replacing a mute of it already set. Mutes
 * that have ended are dropped as the list is written, so they never count against the bound.
 */
export function withMute(current: Preferences, plugin: unknown, until: unknown, now: Date): Preferences {
  const name = validatePluginName(plugin, "plugin");
  let end: Date | null = null;
  if (until !== null && until !== undefined) {
    end = parse(z.date(), until, "until");
    if (end.getTime() <= now.getTime()) throw new ValidationError("until", "until: must be in the future");
  }
  const others = mutesInForce(current, now).filter((mute) => mute.plugin !== name);
  if (others.length >= maxMutedPlugins) throw new ValidationError("plugin", `plugin: at most ${maxMutedPlugins} plugins may be muted; unmute one first`);
  return { ...current, mutes: [...others, { plugin: name, until: end }] };
}

/** Ends the mute of `plugin` (none set: nothing changes). */
export function withoutMute(current: Preferences, plugin: unknown, now: Date): Preferences {
  const name = validatePluginName(plugin, "plugin");
  return { ...current, mutes: mutesInForce(current, now).filter((mute) => mute.plugin !== name) };
}

/** What a live stream does with one new notification (CREATED or UPDATED event). */
export type PushVerdict = "push" | "mute" | "hold";

/**
 * Muted plugins and a severity below the floor are never pushed (not held for later either: a
 * mute is meant to last). Quiet mode holds everything; quiet hours hold all but ERROR when
 * `allowErrors` is set.
 */
export function pushVerdict(preferences: Preferences, notification: Pick<NotificationRecord, "severity" | "source">, now: Date): PushVerdict {
  if (isMuted(preferences, notification.source.plugin, now)) return "mute";
  if (severityRank(notification.severity) < severityRank(preferences.severityFloor)) return "mute";
  if (preferences.quietMode) return "hold";
  if (preferences.quietHours && inQuietHours(preferences.quietHours, now)) {
    return preferences.quietHours.allowErrors && notification.severity === "ERROR" ? "push" : "hold";
  }
  return "push";
}

/** Whether anything makes a stream hold new notifications now (quiet mode, or inside quiet hours). */
export function holdsNow(preferences: Preferences, now: Date): boolean {
  return preferences.quietMode || (preferences.quietHours !== null && inQuietHours(preferences.quietHours, now));
}

/** Severities in rising order of urgency: INFO < SUCCESS < WARNING < ERROR. */
export function severityRank(severity: Severity): number {
  return Severities.indexOf(severity);
}

/**
 * Whether `now` falls inside the schedule, read as wall-clock time in its zone. The zone's rules
 * (daylight-saving changes included) come from the platform's ICU data through Intl, never from
 * offsets kept here: on the night clocks go forward, 22:00-07:00 still ends at 07:00 local time.
 */
export function inQuietHours(quietHours: QuietHours, now: Date): boolean {
  const minute = localMinuteOfDay(now, quietHours.timeZone);
  const start = minuteOfDay(quietHours.start);
  const end = minuteOfDay(quietHours.end);
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function localMinuteOfDay(now: Date, timeZone: string): number {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    formatters.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const hour = Number(parts.find((p) => p.type === "hour")!.value);
  const minute = Number(parts.find((p) => p.type === "minute")!.value);
  return hour * 60 + minute;
}

function minuteOfDay(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

/** The zone's canonical name, or null when the platform does not know it. */
function canonicalZone(timeZone: string): string | null {
  try {
    return new Intl.DateTimeFormat("en-GB", { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a 24-hour time "HH:MM"');

const quietHoursSchema = z.object({
  start: clockTime,
  end: clockTime,
  timeZone: z.string().max(100, "must be at most 100 characters"),
  allowErrors: z.boolean().nullish(),
});

const preferencesSchema = z.object({
  quietMode: z.boolean().nullish(),
  mutedPlugins: z
    .array(z.string().trim().min(1, "must not be empty").max(limits.shortTextLength, `must be at most ${limits.shortTextLength} characters`))
    .max(maxMutedPlugins, `must have at most ${maxMutedPlugins} plugins`)
    .nullish(),
  severityFloor: z.enum(Severities).nullish(),
  quietHours: quietHoursSchema.nullish(),
});

/**
 * Applies an updatePreferences input to the current preferences: given fields replace, absent
 * ones are kept, `quietHours: null` removes the schedule. `mutedPlugins` is the whole list of
 * plugins muted now, as older clients read and write it: a listed plugin already muted keeps its
 * end (a client writing back what it read does not make a mute for an hour last for good), a
 * new one is muted until unmuted, one left out is unmuted.
 */
export function validatePreferencesUpdate(current: Preferences, input: unknown, now: Date): Preferences {
  const parsed = parse(preferencesSchema, input, "input");
  const next: Preferences = { ...current };
  if (parsed.quietMode !== undefined && parsed.quietMode !== null) next.quietMode = parsed.quietMode;
  if (parsed.mutedPlugins) {
    const inForce = new Map(mutesInForce(current, now).map((mute) => [mute.plugin, mute.until]));
    next.mutes = [...new Set(parsed.mutedPlugins)].map((plugin) => ({ plugin, until: inForce.get(plugin) ?? null }));
  }
  if (parsed.severityFloor) next.severityFloor = parsed.severityFloor;
  if (parsed.quietHours === null) next.quietHours = null;
  else if (parsed.quietHours) {
    const { start, end, timeZone, allowErrors } = parsed.quietHours;
    const zone = canonicalZone(timeZone);
    if (!zone) throw new ValidationError("input.quietHours.timeZone", "input.quietHours.timeZone: not an IANA time zone");
    if (start === end) throw new ValidationError("input.quietHours.end", "input.quietHours.end: must differ from start");
    next.quietHours = { start, end, timeZone: zone, allowErrors: allowErrors ?? true };
  }
  return next;
}
