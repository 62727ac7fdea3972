// Bad input gets a typed error naming the field, and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql, resultFields } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";
import { limits } from "@herald/server/domain/limits";

const PUBLISH = `mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { ${resultFields("publish")} } }`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`validation on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };
    const base = () => ({ scope: "PERSON", personId: ada.id, key: "k", title: "Title", source: { plugin: "p" } });
    const written = async () => {
      const probe = storeOf(h.herald.database);
      return { notifications: await probe.count("Notification"), events: await probe.count("NotificationEvent") };
    };

    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
    });
    afterAll(async () => h?.close());

    const cases: [string, (b: Record<string, unknown>) => Record<string, unknown>, string][] = [
      ["empty key", (b) => ({ ...b, key: "" }), "key"],
      ["blank key", (b) => ({ ...b, key: "   " }), "key"],
      ["key over 200 characters", (b) => ({ ...b, key: "k".repeat(201) }), "key"],
      ["empty title", (b) => ({ ...b, title: "" }), "title"],
      ["title over 200 characters", (b) => ({ ...b, title: "t".repeat(201) }), "title"],
      ["body over 10,000 characters", (b) => ({ ...b, body: "b".repeat(10_001) }), "body"],
      ["uiEffects over 16 KiB", (b) => ({ ...b, uiEffects: { blob: "x".repeat(17_000) } }), "uiEffects"],
      ["uiEffects not an object", (b) => ({ ...b, uiEffects: [1, 2] }), "uiEffects"],
      ["too many actions", (b) => ({ ...b, actions: Array.from({ length: 6 }, (_, i) => ({ kind: "DISMISS", id: `a${i}`, label: "x" })) }), "actions"],
      [
        "duplicate action ids",
        (b) => ({
          ...b,
          actions: [
            { kind: "DISMISS", id: "a", label: "x" },
            { kind: "DISMISS", id: "a", label: "y" },
          ],
        }),
        "actions",
      ],
      ["OPEN_URL without url", (b) => ({ ...b, actions: [{ kind: "OPEN_URL", id: "a", label: "x" }] }), "actions.0.url"],
      ["javascript: url", (b) => ({ ...b, actions: [{ kind: "OPEN_URL", id: "a", label: "x", url: "javascript:alert(1)" }] }), "actions.0.url"],
      ["RUN_ACTION without actionId", (b) => ({ ...b, actions: [{ kind: "RUN_ACTION", id: "a", label: "x" }] }), "actions.0.actionId"],
      [
        "fixedParams over 16 KiB",
        (b) => ({ ...b, actions: [{ kind: "RUN_ACTION", id: "a", label: "x", actionId: "go", fixedParams: { v: "x".repeat(17_000) } }] }),
        "actions.0.fixedParams",
      ],
      ["INLINE on APPLICATION", (b) => ({ ...b, scope: "APPLICATION", personId: null, display: { presentation: "INLINE" } }), "display.presentation"],
      ["PERSON without personId", (b) => ({ ...b, personId: null }), "personId"],
      ["PERSON with an unknown person", (b) => ({ ...b, personId: "nobody" }), "personId"],
      ["SESSION with an unknown session", (b) => ({ ...b, scope: "SESSION", personId: null, sessionId: "nope" }), "sessionId"],
      ["unknown engagement", (b) => ({ ...b, engagementId: "nope" }), "engagementId"],
      ["TTL without expiresAt", (b) => ({ ...b, retention: { policy: "TTL" } }), "retention.expiresAt"],
      ["TTL in the past", (b) => ({ ...b, retention: { policy: "TTL", expiresAt: "2001-01-01T00:00:00Z" } }), "retention.expiresAt"],
      ["request retention without request", (b) => ({ ...b, retention: { policy: "UNTIL_REQUEST_COMPLETE" } }), "retention.requestId"],
      ["negative elapsed seconds", (b) => ({ ...b, operation: { id: "op", elapsedSeconds: -1 } }), "operation.elapsedSeconds"],
    ];

    it.each(cases)("refuses %s and names the field", async (_name, change, field) => {
      const before = await written();
      const r = await gql(h.url, h.producerKey, PUBLISH, { input: change(base()) });
      expect(r.errors).toBeUndefined();
      expect(r.data.publishNotification).toMatchObject({ __typename: "ValidationError", field });
      expect(r.data.publishNotification.message).toContain(field);
      expect(await written()).toEqual(before);
    });

    it("refuses an unknown enum value before execution, naming the input path", async () => {
      const before = await written();
      const r = await gql(h.url, h.producerKey, PUBLISH, { input: { ...base(), severity: "LOUD" } });
      expect(r.data ?? null).toBeNull();
      expect(r.errors?.[0]?.message).toContain("input.severity");
      expect(await written()).toEqual(before);
    });

    it("refuses an invalid patch without touching the record", async () => {
      const created = await h.publish(base());
      const before = await written();
      const r = await gql(h.url, h.producerKey, `mutation($id: ID!) { updateNotification(id: $id, patch: { title: "" }) { ${resultFields("publish")} } }`, {
        id: created.id,
      });
      expect(r.data.updateNotification).toMatchObject({ __typename: "ValidationError", field: "patch.title" });
      expect(await written()).toEqual(before);
      const still = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { title revision } }`, { id: created.id });
      expect(still.data.notification).toEqual({ title: "Title", revision: 1 });
    });

    it("answers an unknown notification id with NotFoundError", async () => {
      const r = await gql(h.url, h.producerKey, `mutation { resolveNotification(id: "missing") { ${resultFields("resolve")} } }`);
      expect(r.data.resolveNotification.__typename).toBe("NotFoundError");
    });

    it("refuses queries past the alias and cost limits before running them", async () => {
      const before = await written();
      const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: publishNotification(input: $input) { __typename }`).join("\n");
      const r = await gql(h.url, h.producerKey, `mutation($input: PublishNotificationInput!) { ${aliases} }`, { input: { ...base(), key: "alias" } });
      expect(r.data ?? null).toBeNull();
      expect(r.errors?.length).toBeGreaterThan(0);
      expect(await written()).toEqual(before);

      const fields = `id key title body display { title body variant } source { plugin } actions { id label } operation { id phase } engagement { id name } session { id label }`;
      const heavy = Array.from({ length: 25 }, (_, i) => `p${i}: notifications(first: 100) { edges { node { ${fields} } } }`).join("\n");
      const costly = await gql(h.url, ada.token, `{ ${heavy} }`);
      expect(costly.data ?? null).toBeNull();
      expect(costly.errors?.[0]?.extensions?.code).toBe("QUERY_TOO_COSTLY");
    });

    it("refuses a query past the depth limit before running it", async () => {
      // No field of the schema nests that deep (its longest path is 5), as an attacker's query would.
      const deep = `{ notifications { edges { node { ${"a { ".repeat(limits.queryDepth)}b${" }".repeat(limits.queryDepth)} } } } }`;
      const r = await gql(h.url, ada.token, deep);
      expect(r.data ?? null).toBeNull();
      expect(r.errors?.map((e: { message: string }) => e.message).join("\n")).toMatch(new RegExp(`depth limit of ${limits.queryDepth}`, "i"));
    });

    it("never leaks stack traces in errors", async () => {
      const r = await gql(h.url, h.producerKey, PUBLISH, { input: { ...base(), key: "" } });
      const text = JSON.stringify(r);
      expect(text).not.toMatch(/\bat .*\.ts:\d+/);
      expect(text).not.toContain("stack");
    });
  });
}
