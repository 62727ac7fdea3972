// Which banners come first: the most severe, then the most recently changed.
import type { Notification } from "@herald/sdk";

const RANK: Record<Notification["severity"], number> = { ERROR: 3, WARNING: 2, SUCCESS: 1, INFO: 0 };

export function bySeverityThenLatest(a: Notification, b: Notification): number {
  return RANK[b.severity] - RANK[a.severity] || Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : -1);
}
