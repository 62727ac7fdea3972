// A person names their own sessions and engagements by id (the dashboard's session and
// engagement pages), and learns nothing about anyone else's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

const READ = `query($s: ID!, $e: ID!) { sessionById(id: $s) { id harness sessionId label } engagement(id: $e) { id name } }`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`session and engagement reads on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };
    let bob: { id: string; token: string };
    let session: { id: string; harness: string; sessionId: string };
    let engagement: { id: string; name: string };
    const producer = (query: string, variables?: Record<string, unknown>) => gql(h.url, h.producerKey, query, variables);

    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
      bob = await h.newPerson("Bob");
      const s = await producer(
        `mutation($o: ID!) { createSession(input: { harness: "pi", sessionId: "ada-1", ownerPersonId: $o }) { id harness sessionId } }`,
        { o: ada.id },
      );
      session = s.data.createSession;
      const e = await producer(`mutation($o: ID!) { createEngagement(input: { name: "Audit", operatorPersonId: $o }) { id name } }`, { o: ada.id });
      engagement = e.data.createEngagement;
    });
    afterAll(async () => h?.close());

    it("gives the owner their session and the operator their engagement, with no notification published", async () => {
      const r = await gql(h.url, ada.token, READ, { s: session.id, e: engagement.id });
      expect(r.errors).toBeUndefined();
      expect(r.data.sessionById).toMatchObject(session);
      expect(r.data.engagement).toEqual(engagement);
    });

    it("gives another person null for both, the same as for ids that do not exist", async () => {
      const foreign = await gql(h.url, bob.token, READ, { s: session.id, e: engagement.id });
      expect(foreign.errors).toBeUndefined();
      expect(foreign.data).toEqual({ sessionById: null, engagement: null });
      const absent = await gql(h.url, ada.token, READ, { s: "no-such-session", e: "no-such-engagement" });
      expect(absent.data).toEqual({ sessionById: null, engagement: null });
    });

    it("shows an engagement to a member added later", async () => {
      await producer(`mutation($e: ID!, $p: ID!) { addEngagementMember(input: { engagementId: $e, personId: $p }) { role } }`, { e: engagement.id, p: bob.id });
      const r = await gql(h.url, bob.token, READ, { s: session.id, e: engagement.id });
      expect(r.data).toEqual({ sessionById: null, engagement });
    });

    it("refuses a producer key and a missing credential", async () => {
      expect(errorCode(await producer(READ, { s: session.id, e: engagement.id }))).toBe("FORBIDDEN");
      expect(errorCode(await gql(h.url, null, READ, { s: session.id, e: engagement.id }))).toBe("UNAUTHENTICATED");
    });
  });
}
