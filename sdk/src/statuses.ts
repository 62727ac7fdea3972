// Each status's place in a notification's life, the one statement in the SDK of what "active"
// (not ended), "terminal" (ended) and "unseen" mean. The server states the same table in
// server/src/domain/enums.ts; test/status-cases.ts holds both to it. Keyed by the generated enum,
// so a status the schema adds fails the typecheck until it is placed here.
import type { NotificationStatus } from "./types.ts";

const PHASES: Record<NotificationStatus, "unseen" | "seen" | "ended"> = {
  PENDING: "unseen",
  DELIVERED: "unseen",
  SEEN: "seen",
  DISMISSED: "ended",
  RESOLVED: "ended",
  EXPIRED: "ended",
};
const ALL = Object.keys(PHASES) as NotificationStatus[];

/** What a list shows by default: not ended. */
export const ACTIVE_STATUSES: readonly NotificationStatus[] = ALL.filter((s) => PHASES[s] !== "ended");
/** Ended: dismissed by the person, resolved or expired by the producer. */
export const TERMINAL_STATUSES: readonly NotificationStatus[] = ALL.filter((s) => PHASES[s] === "ended");
/** Counted by the unseen badge. */
export const UNSEEN_STATUSES: readonly NotificationStatus[] = ALL.filter((s) => PHASES[s] === "unseen");
