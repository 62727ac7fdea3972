// Reminders read facts as a person means them, on every provider: only a specific upcoming date
// becomes a reminder (not a weekly habit or a preference), and "tomorrow" is the person's own,
// in their quiet hours' zone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

const DAY = 86_400_000;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`reminders in the person's zone on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider, { timeZone: "UTC" });
    });
    afterAll(async () => h?.close());

    it("reminds of tomorrow in the person's zone and not of habits or preferences", async () => {
      // 05:30 UTC: still the evening before in Los Angeles.
      const now = h.clock.now().getTime();
      const target = Math.ceil((now - 5.5 * 3_600_000) / DAY) * DAY + 5.5 * 3_600_000 + DAY;
      h.clock.advance(target - now);
      const utcDate = new Date(target).toISOString().slice(0, 10);

      const ada = await h.newPerson("Ada");
      const zone = await gql(
        h.url,
        ada.token,
        `mutation { updatePreferences(input: { quietHours: { start: "23:00", end: "06:00", timeZone: "America/Los_Angeles" } }) { quietHours { timeZone } } }`,
      );
      expect(zone.data.updatePreferences.quietHours.timeZone).toBe("America/Los_Angeles");
      const remember = async (content: string) =>
        (
          await gql(h.url, h.producerKey, `mutation($p: ID!, $c: String!) { rememberFact(input: { personId: $p, content: $c }) { id } }`, {
            p: ada.id,
            c: content,
          })
        ).data.rememberFact.id as string;
      const deadline = await remember("The report is due tomorrow");
      await remember("I walk the dog every Tuesday");
      await remember("Bob prefers deploys after 16:00 on Fridays");
      const sync = await remember("Team sync on Mondays");

      h.clock.advance(h.herald.tuning.scanIntervalMs);
      expect(await h.herald.scanner.tick()).not.toBeNull();
      const listed = await gql(h.url, ada.token, `{ notifications(first: 20) { edges { node { title trigger { type ref } } } } }`);
      const reminders = listed.data.notifications.edges.map((e: { node: { title: string; trigger: { ref: string } } }) => e.node);
      // The weekly sync is reminded for its next Monday in Ada's zone; her routine and Bob's preference stay silent.
      const weekly = reminders.filter((r: { trigger: { ref: string } }) => r.trigger.ref.startsWith(`fact:${sync}:`));
      expect(weekly).toHaveLength(1);
      expect(new Date(`${weekly[0].trigger.ref.split(":").at(-1)}T00:00:00Z`).getUTCDay()).toBe(1);
      expect(reminders.filter((r: { trigger: { ref: string } }) => !r.trigger.ref.startsWith(`fact:${sync}:`))).toEqual([
        { title: "Tomorrow: The report is due tomorrow", trigger: { type: "TIME_BASED", ref: `fact:${deadline}:${utcDate}` } },
      ]);
    });
  });
}
