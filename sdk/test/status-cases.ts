// What each notification status means, as one table that both sides check: the SDK's status
// lists (unit test, test/unit/filter.test.ts) and the server's domain (server/test/domain/
// statuses.test.ts). If either side changes what "active", "terminal" or "unseen" means alone,
// one of the two suites fails. Plain data only, so the server imports it without the SDK.
import type { CaseStatus } from "./filter-cases.ts";

export interface StatusCase {
  status: CaseStatus;
  /** Shown by a list without explicit statuses or includeTerminal. */
  active: boolean;
  /** Ended: no further change but reading it (the SDK's isTerminal, the server's isTerminal). */
  terminal: boolean;
  /** Counted by the unseen badge. */
  unseen: boolean;
}

export const statusCases: readonly StatusCase[] = [
  { status: "PENDING", active: true, terminal: false, unseen: true },
  { status: "DELIVERED", active: true, terminal: false, unseen: true },
  { status: "SEEN", active: true, terminal: false, unseen: false },
  { status: "DISMISSED", active: false, terminal: true, unseen: false },
  { status: "RESOLVED", active: false, terminal: true, unseen: false },
  { status: "EXPIRED", active: false, terminal: true, unseen: false },
];
