// A remembered fact as stored: its dates are extracted once, here, so the scanner reads rules.
import { DATE_RULES_VERSION, extractDateRules, serializeDateRules } from "../domain/date-rules.ts";
import type { FactRow } from "../storage/persons/directory-store.ts";

/** `timeZone`: the person's, where "today" and "tomorrow" in the fact are read. */
export function newFact(personId: string, content: string, engagementId: string | null, now: Date, timeZone = "UTC"): FactRow {
  const rules = extractDateRules(content, now, timeZone);
  return {
    personId,
    content,
    engagementId,
    dateRules: serializeDateRules(rules),
    hasDates: rules.length > 0,
    datesVersion: DATE_RULES_VERSION,
    createdAt: now,
  };
}
