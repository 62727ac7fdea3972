// Server-lifetime retention with several instances on one store: an UNTIL_SERVER_RESTART record
// lives as long as the instance that holds it (docs/decisions.md, "Retention"). An instance is
// known by the heartbeat it records; one whose heartbeat is older than the grace has ended.
import type { Decision } from "./lifecycle.ts";

export interface InstanceBeat {
  id: string;
  heartbeatAt: Date;
}

/** Who holds a record and, when that instance still has a row, its last heartbeat. */
export interface Holder {
  /** Null: a record from before instances were recorded. */
  instanceId: string | null;
  /** Null: the instance has no row (it stopped cleanly, or never served). */
  heartbeatAt: Date | null;
}

/**
 * Why records are being checked: at this instance's start (records of no instance end too, as
 * before instances were recorded), periodically, or at its clean stop (only its own end).
 */
export type LifetimeSweep = "start" | "periodic" | "stop";

/** No heartbeat within the grace: the instance stopped without a clean shutdown. */
export function isStale(heartbeatAt: Date, now: Date, graceMs: number): boolean {
  return now.getTime() - heartbeatAt.getTime() > graceMs;
}

/** The instances (other than `self`) whose records have outlived them. */
export function staleInstanceIds(instances: readonly InstanceBeat[], self: string, now: Date, graceMs: number): string[] {
  return instances.filter((i) => i.id !== self && isStale(i.heartbeatAt, now, graceMs)).map((i) => i.id);
}

/**
 * Whether a server-lifetime record's holder has ended, as `self` sees it during `sweep`. An
 * instance ends its own records only when it stops, and never those of an instance still beating.
 */
export function holderEnded(sweep: LifetimeSweep, holder: Holder, self: string, now: Date, graceMs: number): boolean {
  if (holder.instanceId === null) return sweep === "start";
  if (holder.instanceId === self) return sweep === "stop";
  if (sweep === "stop") return false;
  return holder.heartbeatAt === null || isStale(holder.heartbeatAt, now, graceMs);
}

/**
 * The holder a producer's publish or revision gives the record: the instance that handled it when
 * the record is (still) UNTIL_SERVER_RESTART, none otherwise. Undefined: the decision writes no
 * record content, so the holder stays as it was.
 */
export function holderAfter(decision: Decision, self: string | null): string | null | undefined {
  const record = decision.kind === "create" ? decision.draft : decision.kind === "update" ? decision.next : null;
  if (!record) return undefined;
  return record.retention.policy === "UNTIL_SERVER_RESTART" ? self : null;
}
