// Which notifications a person's list and counts include.
import { ActiveStatuses, type NotificationScope, type NotificationStatus, NotificationStatuses, UnseenStatuses } from "./enums.ts";

export interface NotificationFilter {
  statuses?: readonly NotificationStatus[] | null;
  scope?: NotificationScope | null;
  sessionId?: string | null;
  engagementId?: string | null;
  /** Terminal records (and active ones past their TTL) are left out unless asked for. */
  includeTerminal?: boolean | null;
  /** Records snoozed into the future are left out unless asked for. */
  includeSnoozed?: boolean | null;
}

export interface EffectiveFilter {
  statuses: readonly NotificationStatus[];
  scope: NotificationScope | null;
  sessionId: string | null;
  engagementId: string | null;
  includeSnoozed: boolean;
  /** False when TTL-expired active records must be hidden. */
  includeStale: boolean;
}

/** Explicit `statuses` win over `includeTerminal`; without them the list shows active records. */
export function effectiveFilter(filter: NotificationFilter | null | undefined): EffectiveFilter {
  const includeTerminal = filter?.includeTerminal ?? false;
  const statuses =
    filter?.statuses && filter.statuses.length > 0
      ? [...new Set(filter.statuses)]
      : includeTerminal
        ? NotificationStatuses
        : ActiveStatuses;
  return {
    statuses,
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

/** A keyset position in the newest-first order (createdAt desc, id desc). */
export interface Position {
  createdAt: Date;
  id: string;
}
