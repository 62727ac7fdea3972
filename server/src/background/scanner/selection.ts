// What one cycle should raise: both scans' due triggers, without those that fired before.
// Reads and pure rules only, so it runs beside the request thread (selection-thread.ts).
import { threadId } from "node:worker_threads";
import { dedupKeyOf } from "../../domain/companion.ts";
import type { RaiseInput } from "../../service/notification-service.ts";
import type { ScanReads } from "../../storage/companion/scan-reads.ts";
import { dueReminders } from "./date-scan.ts";
import { dueNudges } from "./engagement-scan.ts";

/** Where the selections read from: the server's client, or the selection thread's own connection. */
export type ScanSource = Pick<ScanReads, "datedFacts" | "engagementActivity" | "unfired">;

export interface SelectionOptions {
  dateLeadDays: number;
  staleEngagementDays: number;
  /** The zone of persons without one of their own (HERALD_TIME_ZONE). */
  timeZone: string;
}

export interface Selection {
  /** Dated facts and engagements looked at. */
  facts: number;
  engagements: number;
  /** Due triggers that have not fired yet, reminders first. */
  due: RaiseInput[];
  /** The thread that selected (0: the request thread; see selection-thread.ts). */
  threadId: number;
  /** Milliseconds spent in each step (the benchmark reports them). */
  timings: { facts: number; engagements: number; unfired: number };
}

/** Keys per anti-join statement: one JSON parameter each, so this bounds statement size only. */
const UNFIRED_CHUNK = 5_000;

export async function selectDue(scan: ScanSource, now: Date, options: SelectionOptions, pause: () => Promise<void>): Promise<Selection> {
  let started = performance.now();
  const reminders = await dueReminders(scan, now, options.dateLeadDays, pause, options.timeZone);
  const factsMs = performance.now() - started;
  started = performance.now();
  const nudges = await dueNudges(scan, now, options.staleEngagementDays, pause);
  const engagementsMs = performance.now() - started;
  started = performance.now();
  const candidates = [...reminders.due, ...nudges.due];
  const keys = candidates.map((r) => dedupKeyOf(r.personId, r.triggerSource, r.triggerRef));
  const unfired = new Set<string>();
  for (let i = 0; i < keys.length; i += UNFIRED_CHUNK) {
    for (const key of await scan.unfired(keys.slice(i, i + UNFIRED_CHUNK))) unfired.add(key);
  }
  return {
    facts: reminders.checked,
    engagements: nudges.checked,
    due: candidates.filter((_, i) => unfired.has(keys[i]!)),
    threadId,
    timings: { facts: factsMs, engagements: engagementsMs, unfired: performance.now() - started },
  };
}
