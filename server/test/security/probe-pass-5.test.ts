// A hostile pass over what changed lately, as person A, person B and a producer: action URLs with
// malformed or oversized input, channel targets that hide an inward address in IPv6, and reading
// state aimed at another person's records or at the limits. Each finding of the pass is a case
// here; on every provider. (Addresses hidden in IPv6 tunnels: service/channel-guard.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`hostile probe, pass 5, on ${provider.name}`, () => {
    let h: TestHerald;
    let origin: string;
    beforeAll(async () => {
      h = await startHerald(provider);
      origin = h.url.replace(/\/graphql$/, "");
    });
    afterAll(async () => h?.close());

    it("answers a malformed, oversized or non-JSON action URL request with its own status, never a 500", async () => {
      const post = (path: string, body?: string) => fetch(`${origin}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });
      // A malformed escape in the token was a URIError, answered 500 and logged as a failure.
      const malformed = await post("/actions/hat_%E0%A4%A");
      expect(malformed.status).toBe(404);
      expect(await malformed.json()).toEqual({ status: 404, error: "unknown action link" });
      expect((await post("/actions/%")).status).toBe(404);
      expect((await post(`/actions/hat_${"A".repeat(43)}`, "{not json")).status).toBe(400);
      expect((await post(`/actions/hat_${"A".repeat(43)}`, JSON.stringify({ values: "x".repeat(70 * 1024) }))).status).toBe(413);
      expect((await fetch(`${origin}/actions/hat_${"A".repeat(43)}`)).status).toBe(405);
      const webhook = await gql(
        h.url,
        (await h.newPerson("Ada")).token,
        `mutation { addWebhookChannel(input: { url: "https://[2002:7f00:1::]/hook" }) { __typename ... on ValidationError { field } } }`,
      );
      expect(webhook.data.addWebhookChannel).toEqual({ __typename: "ValidationError", field: "input.url" });
    });

    it("ignores another person's records in reading-state marks and keeps the id bound", async () => {
      const [ada, bob] = [await h.newPerson("Ada"), await h.newPerson("Bob")];
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "private", title: "Ada's own" });
      for (const mark of ["markNotificationsRead", "markNotificationsUnread", "markNotificationsSeen"]) {
        const r = await gql(h.url, bob.token, `mutation($ids: [ID!]!) { ${mark}(ids: $ids) { id } }`, { ids: [n.id] });
        expect(r.errors, mark).toBeUndefined();
        expect(r.data[mark], mark).toEqual([]);
      }
      const view = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { status seenAt readAt } }`, { id: n.id });
      expect(view.data.notification).toEqual({ status: "PENDING", seenAt: null, readAt: null });
      expect((await gql(h.url, bob.token, `query($id: ID!) { notification(id: $id) { id } }`, { id: n.id })).data.notification).toBeNull();
      // Past the per-call bound: refused naming the field, nothing marked.
      const many = Array.from({ length: 501 }, (_, i) => (i === 0 ? n.id : `x${i}`));
      const refused = await gql(h.url, ada.token, `mutation($ids: [ID!]!) { markNotificationsRead(ids: $ids) { id } }`, { ids: many });
      expect(errorCode(refused)).toBe("VALIDATION_ERROR");
      expect((await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { readAt } }`, { id: n.id })).data.notification.readAt).toBeNull();
    });
  });
}
