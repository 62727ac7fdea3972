// The person's reader controls as a list filter. The event stream never pushes what a muted
// plugin or a severity below the floor publishes, so a live view that listed those would show
// fewer records live than after a reload; with the controls in its filter, its list, its counts
// and the badge equal what the server lists for the same filter, live and after a reload.
import type { NotificationFilter, Preferences } from "@herald/sdk";

type Severity = Preferences["severityFloor"];
const RISING: readonly Severity[] = ["INFO", "SUCCESS", "WARNING", "ERROR"];

export type ReaderControls = Pick<Preferences, "mutedPlugins" | "severityFloor">;

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
