// The list, count and batch-id statements kept per shape (storage/statement-templates.ts) must be
// exactly what the builder makes for each call: the same text and the same values in order, on a
// shape's first call and on every later call with other values.
import type { Compilable } from "kysely";
import { describe, expect, it } from "vitest";
import { effectiveFilter, type EffectiveFilter } from "../../src/domain/filter.ts";
import { countStatement, pageStatement, visibleIdsStatement } from "../../src/storage/notification-page-sql.ts";
import { NotificationPageTemplates } from "../../src/storage/notification-page-templates.ts";
import { StatementTemplates } from "../../src/storage/statement-templates.ts";
import { sqlFor } from "../../src/storage/sql.ts";

const filters: Record<string, EffectiveFilter> = {
  default: effectiveFilter(null),
  terminal: effectiveFilter({ includeTerminal: true }),
  statuses: effectiveFilter({ statuses: ["SEEN", "DISMISSED"] }),
  everything: effectiveFilter({
    statuses: ["PENDING", "SEEN"],
    scope: "SESSION",
    sessionId: "session-1",
    engagementId: "engagement-1",
    severities: ["ERROR", "WARNING"],
    plugins: ["ci", "mail"],
    excludePlugins: ["noise"],
    unread: true,
    includeSnoozed: true,
  }),
  shared: effectiveFilter({ scope: "APPLICATION", unread: false, plugins: ["ops"] }),
};

/** Other values of the same shape: every slotted string, time and number changed. */
function other(f: EffectiveFilter): EffectiveFilter {
  const renamed = (values: readonly string[] | null) => values?.map((v) => `${v}-2`) ?? null;
  return {
    ...f,
    sessionId: f.sessionId && `${f.sessionId}-2`,
    engagementId: f.engagementId && `${f.engagementId}-2`,
    plugins: renamed(f.plugins),
    excludePlugins: renamed(f.excludePlugins),
    severities: f.severities && [...f.severities].reverse(),
  };
}

const compiled = (statement: Compilable | null) => statement && { sql: statement.compile().sql, parameters: [...statement.compile().parameters] };
const templated = (statement: { sql: string; parameters: readonly unknown[] } | null) => statement && { sql: statement.sql, parameters: [...statement.parameters] };

for (const provider of ["sqlite", "postgresql"] as const) {
  describe(`statements kept per shape (${provider})`, () => {
    for (const historyLimit of [null, 0, 3]) {
      for (const [name, filter] of Object.entries(filters)) {
        it(`bind each call's own values into the builder's text: ${name} filter, history limit ${historyLimit}`, () => {
          const templates = new NotificationPageTemplates(provider);
          const calls = [
            { personId: "p1", filter, now: new Date("2026-12-01T10:00:00.000Z") },
            { personId: "p2", filter: other(filter), now: new Date("2026-12-02T11:30:00.123Z") },
            { personId: "p3", filter, now: new Date("2026-12-03T12:00:00.456Z") },
          ];
          for (const [i, call] of calls.entries()) {
            const position = { createdAt: new Date(Date.UTC(2026, 10, 20 + i)), id: `cursor-${i}` };
            for (const page of [
              { after: null, before: null, limit: 21 + i, inverted: false },
              { after: position, before: null, limit: 11 + i, inverted: false },
              { after: null, before: position, limit: 6 + i, inverted: true },
            ]) {
              expect(templated(templates.page.compile({ ...call, page, historyLimit }))).toEqual(compiled(pageStatement(provider, call.personId, call.filter, page, call.now, historyLimit)));
            }
            expect(templated(templates.count.compile({ ...call, historyLimit }))).toEqual(compiled(countStatement(provider, call.personId, call.filter, call.now, historyLimit)));
            expect(templated(templates.visibleIds.compile({ ...call, limit: 100 + i, historyLimit }))).toEqual(compiled(visibleIdsStatement(provider, call.personId, call.filter, call.now, 100 + i, historyLimit)));
          }
          // Kept as text: the three page shapes (first, after a cursor, before one), the count and the ids.
          expect([templates.page.kept, templates.count.kept, templates.visibleIds.kept]).toEqual([3, 1, 1]);
        });
      }
    }

    it("build every call of a shape whose slot changes the text, or is transformed on its way in", () => {
      const db = sqlFor(provider);
      let built = 0;
      const templates = new StatementTemplates<{ prefix: string; n: number }>(provider, {
        shape: () => "one shape",
        slots: (input) => new Map<string, string | number>([["prefix", input.prefix], ["n", input.n]]),
        withSlots: (input, slots) => ({ prefix: slots.get("prefix") as string, n: slots.get("n") as number }),
        build: (input) => {
          built++;
          // A transformed slot (a LIKE pattern) and a structural one (n decides how many conditions).
          let query = db.selectFrom("Person").select("id").where("name", "like", `${input.prefix}%`);
          for (let i = 0; i < input.n % 3; i++) query = query.where("id", "!=", `x${i}`);
          return query;
        },
      });
      for (const [prefix, n] of [["a", 1], ["b", 2], ["c", 4]] as const) {
        const statement = templates.compile({ prefix, n })!;
        expect(statement.parameters[0]).toBe(`${prefix}%`);
      }
      // Each call built its statement (never a cached text with another call's values).
      expect(built).toBeGreaterThanOrEqual(3);
      expect(templates.kept).toBe(0);
    });
  });
}
