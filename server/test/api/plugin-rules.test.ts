// Rules of the plugin notification API over real HTTP, on every storage provider: the contract's
// type names, terminal reasons, non-dismissible records, terminal revisions and keyed patches.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`plugin rules on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };

    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
    });
    afterAll(async () => h?.close());

    it("names the notifications connection NotificationConnection with NotificationEdge edges", async () => {
      const r = await gql(
        h.url,
        ada.token,
        `{ __schema { queryType { fields { name type { ofType { name fields { name type { ofType { ofType { ofType { name } } } } } } } } } } }`,
      );
      const field = r.data.__schema.queryType.fields.find((f: { name: string }) => f.name === "notifications");
      expect(field.type.ofType.name).toBe("NotificationConnection");
      const edges = field.type.ofType.fields.find((f: { name: string }) => f.name === "edges");
      expect(edges.type.ofType.ofType.ofType.name).toBe("NotificationEdge");
      const page = await gql(h.url, ada.token, `{ notifications(first: 1) { __typename edges { __typename } } }`);
      expect(page.data.notifications.__typename).toBe("NotificationConnection");
    });
  });
}
