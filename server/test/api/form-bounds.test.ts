// RUN_ACTION forms over real HTTP on every storage provider: the JSON bound holds after "$form"
// substitution; field names that are Object.prototype members behave like any other; the key
// __proto__ is refused rather than dropped; invocations are deleted past their retention.
import { eventually } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

const INVOKE = `mutation($id: ID!, $actionId: String!, $values: JSON) {
  invokeNotificationAction(id: $id, actionId: $actionId, values: $values) { id fixedParams values }
}`;
const RETENTION_MS = 60 * 60 * 1000;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`form bounds on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };
    beforeAll(async () => {
      h = await startHerald(provider, { invocationRetentionMs: RETENTION_MS, historyIntervalMs: 100 });
      ada = await h.newPerson("Ada");
    });
    afterAll(async () => h?.close());

    const invocations = (plugin: string) => storeOf(h.herald.database).count("ActionInvocation", (q) => q.where("plugin", "=", plugin));
    const withForm = (plugin: string, form: unknown[], fixedParams: unknown) =>
      h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: `form:${plugin}`,
        title: "Run it",
        source: { plugin },
        actions: [{ kind: "RUN_ACTION", id: "run", label: "Run", actionId: "do.it", form, fixedParams }],
      });
    const invoke = (id: string, values: unknown) => gql(h.url, ada.token, INVOKE, { id, actionId: "run", values });

    it("refuses values whose substitution would push fixedParams past 16 KiB, and writes nothing", async () => {
      const names = Array.from({ length: 10 }, (_, i) => `f${i}`);
      const form = names.map((name) => ({ name, label: name, type: "TEXT" }));
      // 900 references: small as published (each "$form.fN" is 9 bytes), huge once each copies a value.
      const fixedParams = { refs: Array.from({ length: 900 }, (_, i) => `$form.${names[i % 10]}`) };
      const n = await withForm("amplify", form, fixedParams);
      expect(n.__typename).toBe("Notification");
      const big = Object.fromEntries(names.map((name) => [name, "x".repeat(1_500)]));
      const refused = await invoke(n.id, big);
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "values" });
      expect(refused.errors?.[0]?.message).toMatch(/^values: .*16384/);
      expect(await invocations("amplify")).toBe(0);
      // Values that fit after substitution still run.
      const fits = await invoke(n.id, Object.fromEntries(names.map((name) => [name, "y"])));
      expect(fits.errors).toBeUndefined();
      expect((fits.data.invokeNotificationAction.fixedParams.refs as string[]).slice(0, 2)).toEqual(["y", "y"]);
    });

    it("treats fields named like Object.prototype members as ordinary fields", async () => {
      const form = [
        { name: "constructor", label: "Constructor", type: "TEXT" },
        { name: "toString", label: "To string", type: "TEXT" },
        { name: "valueOf", label: "Value of", type: "BOOLEAN" },
        { name: "hasOwnProperty", label: "Has", type: "NUMBER" },
      ];
      const n = await withForm("protonames", form, { a: "$form.constructor", b: "$form.toString", c: "$form.valueOf", d: "$form.hasOwnProperty" });
      expect(n.__typename).toBe("Notification");
      const empty = await invoke(n.id, {});
      expect(empty.errors, JSON.stringify(empty.errors)).toBeUndefined();
      expect(empty.data.invokeNotificationAction).toMatchObject({
        fixedParams: { a: null, b: null, c: false, d: null },
        values: { constructor: null, toString: null, valueOf: false, hasOwnProperty: null },
      });
      const filled = await invoke(n.id, { constructor: "c", toString: "t", valueOf: true, hasOwnProperty: 3 });
      expect(filled.data.invokeNotificationAction.fixedParams).toEqual({ a: "c", b: "t", c: true, d: 3 });
    });

    it("refuses the key __proto__ in any JSON input and as a form field name, naming the field", async () => {
      const before = await storeOf(h.herald.database).count("Notification");
      const publish = (action: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
        gql(
          h.url,
          h.producerKey,
          `mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { __typename ... on ValidationError { field message } } }`,
          {
            input: { scope: "PERSON", personId: ada.id, key: "proto", title: "t", source: { plugin: "proto" }, actions: [action], ...extra },
          },
        );
      // Sent as JSON text, so "__proto__" arrives as an own key, exactly as any client's would.
      const raw = (text: string) => JSON.parse(text) as Record<string, unknown>;
      const run = { kind: "RUN_ACTION", id: "run", label: "Run", actionId: "do.it" };
      const cases: [Record<string, unknown>, Record<string, unknown>, string][] = [
        [{ ...run, fixedParams: raw('{"__proto__": {"admin": true}, "x": 1}') }, {}, "actions.0.fixedParams.__proto__"],
        [{ ...run, fixedParams: raw('{"deep": [{"__proto__": 1}]}') }, {}, "actions.0.fixedParams.deep.0.__proto__"],
        [run, { uiEffects: raw('{"__proto__": {"reload_sessions_list": true}}') }, "uiEffects.__proto__"],
        [{ ...run, form: [{ name: "__proto__", label: "P", type: "TEXT" }] }, {}, "actions.0.form.0.name"],
      ];
      for (const [action, extra, field] of cases) {
        const r = await publish(action, extra);
        expect(r.data?.publishNotification ?? r.errors, field).toMatchObject({ __typename: "ValidationError", field });
      }
      expect(await storeOf(h.herald.database).count("Notification")).toBe(before);
      // Invocation values with the key are refused the same way.
      const n = await withForm("protovalues", [{ name: "a", label: "A", type: "TEXT" }], { a: "$form.a" });
      const r = await invoke(n.id, raw('{"__proto__": {"a": "x"}}'));
      expect(r.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "values.__proto__" });
      expect(await invocations("protovalues")).toBe(0);
    });

    it("deletes invocations past HERALD_INVOCATION_RETENTION_HOURS in the background, newer ones stay", async () => {
      const n = await withForm("retained", [{ name: "a", label: "A", type: "TEXT" }], { a: "$form.a" });
      const old = await invoke(n.id, { a: "old" });
      expect(old.errors).toBeUndefined();
      h.clock.advance(RETENTION_MS + 1_000);
      const recent = await invoke(n.id, { a: "new" });
      await eventually(async () => (await invocations("retained")) === 1, 10_000, "the sweep to delete the old invocation");
      const left = await storeOf(h.herald.database).pick("ActionInvocation", ["id"], (q) => q.where("plugin", "=", "retained"));
      expect(left.map((r) => r.id)).toEqual([recent.data.invokeNotificationAction.id]);
    });
  });
}
