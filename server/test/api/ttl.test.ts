// TTL is a presentation deadline, not a lifecycle step: a producer may still change the record
// after it, and only a deadline the producer sends must lie in the future.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql, resultFields } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`TTL records on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };
    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
    });
    afterAll(async () => h?.close());

    const update = (id: string, patch: Record<string, unknown>) =>
      gql(h.url, h.producerKey, `mutation($id: ID!, $p: NotificationPatch!) { updateNotification(id: $id, patch: $p) { ${resultFields("publish")} } }`, {
        id,
        p: patch,
      }).then((r) => r.data.updateNotification);

    it("lets a producer update a TTL record after its deadline when the patch sends no retention", async () => {
      const expiresAt = new Date(h.clock.now().getTime() + 60_000).toISOString();
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "ttl:late", title: "Build 7 running", retention: { policy: "TTL", expiresAt } });
      h.clock.advance(120_000);
      const updated = await update(n.id, { title: "Build 7 done" });
      expect(updated).toMatchObject({ __typename: "Notification", title: "Build 7 done", revision: 2, status: "PENDING" });
      expect(Date.parse(updated.retention.expiresAt)).toBe(Date.parse(expiresAt));
    });

    it("still refuses a deadline in the past that the patch itself sends", async () => {
      const expiresAt = new Date(h.clock.now().getTime() + 60_000).toISOString();
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "ttl:past", title: "t", retention: { policy: "TTL", expiresAt } });
      const past = new Date(h.clock.now().getTime() - 1_000).toISOString();
      const refused = await update(n.id, { retention: { policy: "TTL", expiresAt: past } });
      expect(refused).toMatchObject({ __typename: "ValidationError", field: "patch.retention.expiresAt" });
      const later = new Date(h.clock.now().getTime() + 600_000).toISOString();
      expect(await update(n.id, { retention: { policy: "TTL", expiresAt: later } })).toMatchObject({ __typename: "Notification", revision: 2 });
    });
  });
}
