// What the periodic scanner claims and keeps up to date. Its selections are in
// storage/companion/scan-reads.ts (run on the selection thread); its notifications go through NotificationService.
import { DATE_RULES_VERSION, extractDateRules, serializeDateRules } from "../domain/date-rules.ts";
import type { CompanionStore } from "../storage/companion/companion-store.ts";

const EXTRACT_PAGE = 200;

export class ScanService {
  constructor(private readonly store: CompanionStore) {}

  /** True for exactly one instance per cycle (see CompanionStore.claimCycle). */
  claimCycle(name: string, cycleStart: Date, holder: string, now: Date): Promise<boolean> {
    return this.store.claimCycle(name, cycleStart, holder, now);
  }

  /**
   * Extracts the dates of facts stored before the current extractor (older rows, or an upgrade),
   * a page at a time. Facts keep the time they were said as the reference for "next Friday".
   */
  async extractOutdatedDates(pause: () => Promise<void>): Promise<number> {
    let done = 0;
    for (;;) {
      const page = await this.store.factsToExtract(DATE_RULES_VERSION, EXTRACT_PAGE);
      for (const fact of page) {
        const rules = extractDateRules(fact.content, fact.createdAt);
        await this.store.setFactDates(fact.id, serializeDateRules(rules), rules.length > 0, DATE_RULES_VERSION);
        await pause();
      }
      done += page.length;
      if (page.length < EXTRACT_PAGE) return done;
      await pause();
    }
  }
}
