// The documented maximum page with the SDK's own fragment, on every provider: accepted whether
// the page size is written in the document or passed as a variable; a costlier request is refused
// with a typed QUERY_TOO_COSTLY before anything runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotificationFieldsFragmentDoc } from "../../../sdk/src/generated/graphql.ts";
import { limits } from "@herald/server/domain/limits";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

const fragment = NotificationFieldsFragmentDoc.toString();
const page = (first: string) =>
  `notifications(first: ${first}) { totalCount edges { cursor node { ...NotificationFields } } pageInfo { hasNextPage endCursor } }`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`query cost on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };
    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
      for (let i = 0; i < 3; i++) {
        await h.publish({
          scope: "PERSON",
          personId: ada.id,
          key: `k${i}`,
          title: `t${i}`,
          actions: [{ kind: "OPEN_URL", id: "open", label: "Open", url: "https://example.com/" }],
        });
      }
    });
    afterAll(async () => h?.close());

    it("serves the largest page with the SDK's fragment, literal or variable", async () => {
      const literal = await gql(h.url, ada.token, `query { ${page(String(limits.pageSize))} } ${fragment}`);
      expect(literal.errors).toBeUndefined();
      expect(literal.data.notifications.totalCount).toBe(3);
      const variable = await gql(h.url, ada.token, `query($first: Int) { ${page("$first")} } ${fragment}`, { first: limits.pageSize });
      expect(variable.errors).toBeUndefined();
      expect(variable.data).toEqual(literal.data);
    });

    it("refuses a costlier request with QUERY_TOO_COSTLY, the same for a literal and a variable", async () => {
      const aliases = (first: string) => Array.from({ length: 3 }, (_, i) => `p${i}: ${page(first)}`).join("\n");
      const literal = await gql(h.url, ada.token, `query { ${aliases(String(limits.pageSize))} } ${fragment}`);
      const variable = await gql(h.url, ada.token, `query($first: Int) { ${aliases("$first")} } ${fragment}`, { first: limits.pageSize });
      for (const refused of [literal, variable]) {
        expect(refused.status).toBe(400);
        expect(refused.data ?? null).toBeNull();
        expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "QUERY_TOO_COSTLY", maxCost: limits.queryCost });
        expect(refused.errors?.[0]?.message).not.toMatch(/syntax/i);
      }
      expect((literal.errors![0]!.extensions as { cost: number }).cost).toBe((variable.errors![0]!.extensions as { cost: number }).cost);
    });
  });
}
