// A session's exchange record stays bounded, on every provider: the newest completion ids are
// kept for the retry rules, older ones are forgotten as new exchanges come in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The window's size lives with the store that applies it; it is not part of the API.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- see "Public modules" in docs/decisions.md
import { EXCHANGE_WINDOW } from "../../src/storage/sessions/session-store.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`the exchange window on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider);
    });
    afterAll(async () => h?.close());

    it("keeps the newest completion ids of a session and forgets the rest", async () => {
      const ada = await h.newPerson("Ada");
      const sessions = h.herald.services.sessions;
      const exchange = (n: number) => ({
        harness: "codex",
        sessionId: "window",
        completionId: `turn-${n}`,
        cwd: "/w",
        userText: "u",
        assistantText: `a ${n}`,
        personId: ada.id,
      });
      const total = EXCHANGE_WINDOW + 5;
      for (let n = 0; n < total; n++) {
        h.clock.tick();
        expect((await sessions.reportExchange(exchange(n))).duplicate).toBe(false);
      }
      const rows = await storeOf(h.herald.database).pick("SessionExchange", ["completionId"], (q) =>
        q.where("sessionId", "in", (eb) => eb.selectFrom("Session").select("id").where("nativeSessionId", "=", "window")),
      );
      expect(rows).toHaveLength(EXCHANGE_WINDOW);
      expect(rows.map((r) => r.completionId)).not.toContain("turn-0");
      // The retry rules still hold for what is kept.
      const retried = await sessions.reportExchange(exchange(total - 1));
      expect(retried).toMatchObject({ duplicate: true, notification: null });
      await sessions.settled();
    });
  });
}
