// Which notifications a person's list and counts include.
import { ActiveStatuses, type NotificationScope, type NotificationStatus, NotificationStatuses, type Severity, UnseenStatuses } from "./enums.ts";
import { ValidationError } from "./errors.ts";

/** Source plugins one filter may name. */
export const maxFilterPlugins = 100;

export interface NotificationFilter {
  statuses?: readonly NotificationStatus[] | null;
  scope?: NotificationScope | null;
  sessionId?: string | null;
  engagementId?: string | null;
  /** Terminal records (and active ones past their TTL) are left out unless asked for. */
  includeTerminal?: boolean | null;
  /** Records snoozed into the future are left out unless asked for. */
  includeSnoozed?: boolean | null;
  /** Only these severities (empty or absent: all). */
  severities?: readonly Severity[] | null;
  /** Only notifications from these source plugins (empty or absent: all). */
  plugins?: readonly string[] | null;
  /** Leaves out notifications from these source plugins (a client following the person's muted sources). */
  excludePlugins?: readonly string[] | null;
  /** true: only unread ones (readAt null); false: only read ones; absent: both. */
  unread?: boolean | null;
}

export interface EffectiveFilter {
  statuses: readonly NotificationStatus[];
  scope: NotificationScope | null;
  sessionId: string | null;
  engagementId: string | null;
  includeSnoozed: boolean;
  /** False when TTL-expired active records must be hidden. */
  includeStale: boolean;
  /** null: any. */
  severities: readonly Severity[] | null;
  plugins: readonly string[] | null;
  /** null: none left out. */
  excludePlugins: readonly string[] | null;
  /** null: read and unread alike. */
  unread: boolean | null;
}

/** Explicit `statuses` win over `includeTerminal`; without them the list shows active records. */
export function effectiveFilter(filter: NotificationFilter | null | undefined): EffectiveFilter {
  const includeTerminal = filter?.includeTerminal ?? false;
  const statuses = filter?.statuses && filter.statuses.length > 0 ? [...new Set(filter.statuses)] : includeTerminal ? NotificationStatuses : ActiveStatuses;
  if (filter?.plugins && filter.plugins.length > maxFilterPlugins) {
    throw new ValidationError("filter.plugins", `filter.plugins: must name at most ${maxFilterPlugins} plugins`);
  }
  if (filter?.excludePlugins && filter.excludePlugins.length > maxFilterPlugins) {
    throw new ValidationError("filter.excludePlugins", `filter.excludePlugins: must name at most ${maxFilterPlugins} plugins`);
  }
  return {
    statuses,
    severities: filter?.severities && filter.severities.length > 0 ? [...new Set(filter.severities)] : null,
    plugins: filter?.plugins && filter.plugins.length > 0 ? [...new Set(filter.plugins)] : null,
    excludePlugins: filter?.excludePlugins && filter.excludePlugins.length > 0 ? [...new Set(filter.excludePlugins)] : null,
    unread: filter?.unread ?? null,
    scope: filter?.scope ?? null,
    sessionId: filter?.sessionId ?? null,
    engagementId: filter?.engagementId ?? null,
    includeSnoozed: filter?.includeSnoozed ?? false,
    includeStale: includeTerminal,
  };
}

export function unseenOnly(filter: EffectiveFilter): EffectiveFilter {
  return { ...filter, statuses: filter.statuses.filter((s) => UnseenStatuses.includes(s)) };
}

/** The unread part of a filtered list (an `unread: false` filter has none). */
export function unreadOnly(filter: EffectiveFilter): EffectiveFilter {
  return filter.unread === false ? { ...filter, statuses: [] } : { ...filter, unread: true };
}

/** A keyset position in the newest-first order (createdAt desc, id desc). */
export interface Position {
  createdAt: Date;
  id: string;
}
