// A person's channels through the API, on every provider: register each kind, list, change rules,
// remove; bad input names its field and stores nothing; secrets never come back; a person sees
// and changes only their own channels.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

const CHANNEL = `id kind label createdAt failing lastDeliveryAt rules { minSeverity scopes delaySeconds }`;

/** A subscription's keys as a browser makes them: an uncompressed P-256 public key and 16 random bytes. */
export function subscriptionKeys() {
  const { publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const jwk = publicKey.export({ format: "jwk" });
  const raw = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, "base64url"), Buffer.from(jwk.y!, "base64url")]);
  return { p256dh: raw.toString("base64url"), auth: randomBytes(16).toString("base64url") };
}

for (const provider of providers) {
  describe.skipIf(!provider.available)(`channels on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider);
    });
    afterAll(async () => h?.close());

    const list = async (token: string) =>
      (await gql(token === "" ? h.url : h.url, token, `{ viewer { channels { ${CHANNEL} } } }`)).data.viewer.channels as any[];

    it("registers, lists, re-rules and removes a person's own channels, and never returns a secret but the webhook's once", async () => {
      const ada = await h.newPerson("Ada");
      const keys = subscriptionKeys();
      const push = await gql(
        h.url,
        ada.token,
        `mutation($i: AddWebPushChannelInput!) { addWebPushChannel(input: $i) { __typename ... on Channel { ${CHANNEL} } } }`,
        {
          i: { endpoint: "https://push.example.com/send/abc", ...keys, label: "Phone" },
        },
      );
      expect(push.data.addWebPushChannel).toMatchObject({
        __typename: "Channel",
        kind: "WEB_PUSH",
        label: "Phone",
        failing: false,
        rules: { minSeverity: "INFO", scopes: ["APPLICATION", "SESSION", "PERSON"], delaySeconds: 0 },
      });
      // The same endpoint again renews its keys instead of adding a second channel.
      const again = await gql(h.url, ada.token, `mutation($i: AddWebPushChannelInput!) { addWebPushChannel(input: $i) { ... on Channel { id } } }`, {
        i: { endpoint: "https://push.example.com/send/abc", ...subscriptionKeys() },
      });
      expect(again.data.addWebPushChannel.id).toBe(push.data.addWebPushChannel.id);

      const ntfy = await gql(
        h.url,
        ada.token,
        `mutation($i: AddNtfyChannelInput!) { addNtfyChannel(input: $i) { __typename ... on Channel { ${CHANNEL} } } }`,
        {
          i: { url: "https://ntfy.example.com/ada-builds", token: "tk_secret_value" },
        },
      );
      expect(ntfy.data.addNtfyChannel).toMatchObject({ kind: "NTFY", label: "ntfy ada-builds" });
      const hook = await gql(
        h.url,
        ada.token,
        `mutation($i: AddWebhookChannelInput!) { addWebhookChannel(input: $i) { __typename ... on WebhookChannelCreated { secret channel { ${CHANNEL} } } } }`,
        {
          i: { url: "https://hooks.example.com/herald" },
        },
      );
      expect(hook.data.addWebhookChannel.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

      const channels = await list(ada.token);
      expect(channels.map((c) => c.kind)).toEqual(["WEB_PUSH", "NTFY", "WEBHOOK"]);
      const text = JSON.stringify(channels);
      for (const secret of ["tk_secret_value", hook.data.addWebhookChannel.secret, keys.auth, keys.p256dh]) expect(text).not.toContain(secret);

      const rules = await gql(
        h.url,
        ada.token,
        `mutation($id: ID!, $r: ChannelRulesInput!) { setChannelRules(id: $id, rules: $r) { __typename ... on Channel { ${CHANNEL} } } }`,
        {
          id: ntfy.data.addNtfyChannel.id,
          r: { minSeverity: "WARNING", scopes: ["SESSION", "PERSON"], delaySeconds: 60 },
        },
      );
      expect(rules.data.setChannelRules.rules).toEqual({ minSeverity: "WARNING", scopes: ["SESSION", "PERSON"], delaySeconds: 60 });
      const partial = await gql(
        h.url,
        ada.token,
        `mutation($id: ID!, $r: ChannelRulesInput!) { setChannelRules(id: $id, rules: $r) { ... on Channel { rules { minSeverity scopes delaySeconds } } } }`,
        {
          id: ntfy.data.addNtfyChannel.id,
          r: { delaySeconds: 0 },
        },
      );
      expect(partial.data.setChannelRules.rules).toEqual({ minSeverity: "WARNING", scopes: ["SESSION", "PERSON"], delaySeconds: 0 });

      const removed = await gql(h.url, ada.token, `mutation($id: ID!) { removeChannel(id: $id) }`, { id: hook.data.addWebhookChannel.channel.id });
      expect(removed.data.removeChannel).toBe(true);
      expect((await list(ada.token)).map((c) => c.kind)).toEqual(["WEB_PUSH", "NTFY"]);

      const key = await gql(h.url, ada.token, `{ webPushPublicKey }`);
      expect(Buffer.from(key.data.webPushPublicKey, "base64url")).toHaveLength(65);
    });

    it("refuses bad input naming the field, storing nothing", async () => {
      const bob = await h.newPerson("Bob");
      const add = (mutation: string, input: string, i: Record<string, unknown>) =>
        gql(h.url, bob.token, `mutation($i: ${input}!) { r: ${mutation}(input: $i) { __typename ... on ValidationError { field message } } }`, { i });
      const cases: [string, string, Record<string, unknown>, string][] = [
        ["addNtfyChannel", "AddNtfyChannelInput", { url: "http://ntfy.example.com/topic" }, "input.url"],
        ["addNtfyChannel", "AddNtfyChannelInput", { url: "https://10.0.0.5/topic" }, "input.url"],
        ["addNtfyChannel", "AddNtfyChannelInput", { url: "https://[fe80::1]/topic" }, "input.url"],
        ["addNtfyChannel", "AddNtfyChannelInput", { url: "https://localhost/topic" }, "input.url"],
        ["addNtfyChannel", "AddNtfyChannelInput", { url: "https://ntfy.example.com/" }, "input.url"],
        ["addNtfyChannel", "AddNtfyChannelInput", { url: "https://ntfy.example.com/t", token: "two words" }, "input.token"],
        ["addWebhookChannel", "AddWebhookChannelInput", { url: "not a url" }, "input.url"],
        ["addWebhookChannel", "AddWebhookChannelInput", { url: "https://user:pw@hooks.example.com/x" }, "input.url"],
        ["addWebhookChannel", "AddWebhookChannelInput", { url: "https://127.0.0.1/x" }, "input.url"],
        [
          "addWebPushChannel",
          "AddWebPushChannelInput",
          { endpoint: "https://push.example.com/x", p256dh: "short", auth: subscriptionKeys().auth },
          "input.p256dh",
        ],
        [
          "addWebPushChannel",
          "AddWebPushChannelInput",
          { endpoint: "https://push.example.com/x", p256dh: subscriptionKeys().p256dh, auth: "!!" },
          "input.auth",
        ],
        ["addWebhookChannel", "AddWebhookChannelInput", { url: "https://hooks.example.com/x", label: "x".repeat(101) }, "input.label"],
      ];
      for (const [mutation, input, i, field] of cases) {
        const r = await add(mutation, input, i);
        expect(r.data.r, JSON.stringify(i)).toMatchObject({ __typename: "ValidationError", field });
      }
      const ok = await add("addWebhookChannel", "AddWebhookChannelInput", { url: "https://hooks.example.com/x" });
      expect(ok.data.r.__typename).toBe("WebhookChannelCreated");
      const [channel] = await list(bob.token);
      const bad = await gql(
        h.url,
        bob.token,
        `mutation($id: ID!) { r: setChannelRules(id: $id, rules: { delaySeconds: -1 }) { __typename ... on ValidationError { field } } }`,
        { id: channel.id },
      );
      expect(bad.data.r).toEqual({ __typename: "ValidationError", field: "rules.delaySeconds" });
      const none = await gql(
        h.url,
        bob.token,
        `mutation($id: ID!) { r: setChannelRules(id: $id, rules: { scopes: [] }) { __typename ... on ValidationError { field } } }`,
        { id: channel.id },
      );
      expect(none.data.r).toEqual({ __typename: "ValidationError", field: "rules.scopes" });
      expect(await list(bob.token)).toHaveLength(1);
      expect((await list(bob.token))[0].rules.delaySeconds).toBe(0);
    });

    it("keeps each person to their own channels", async () => {
      const ada = await h.newPerson("Ada");
      const eve = await h.newPerson("Eve");
      const created = await gql(
        h.url,
        ada.token,
        `mutation { addWebhookChannel(input: { url: "https://hooks.example.com/ada" }) { ... on WebhookChannelCreated { channel { id } } } }`,
      );
      const id = created.data.addWebhookChannel.channel.id;
      expect(await list(eve.token)).toEqual([]);
      const rules = await gql(h.url, eve.token, `mutation($id: ID!) { r: setChannelRules(id: $id, rules: { delaySeconds: 5 }) { __typename } }`, { id });
      expect(rules.data.r.__typename).toBe("NotFoundError");
      expect((await gql(h.url, eve.token, `mutation($id: ID!) { removeChannel(id: $id) }`, { id })).data.removeChannel).toBe(false);
      expect(errorCode(await gql(h.url, eve.token, `mutation($id: ID!) { testChannel(id: $id) { id } }`, { id }))).toBe("NOT_FOUND");
      expect(errorCode(await gql(h.url, h.producerKey, `{ webPushPublicKey }`))).toBe("FORBIDDEN");
      expect(errorCode(await gql(h.url, h.producerKey, `mutation { addWebhookChannel(input: { url: "https://hooks.example.com/p" }) { __typename } }`))).toBe(
        "FORBIDDEN",
      );
      expect(await list(ada.token)).toHaveLength(1);
    });

    // Counted and inserted, or read and written, in one transaction each: before, requests sent at
    // once all passed the count of 20, and one patch of a channel's rules overwrote another's.
    it("holds the limit of 20 channels and keeps both of two rule patches, for requests sent at once", async () => {
      const ada = await h.newPerson("Ada");
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          gql(h.url, ada.token, `mutation($u: String!) { addWebhookChannel(input: { url: $u }) { __typename ... on ValidationError { field message } } }`, {
            u: `https://hooks.example.com/race-${i}`,
          }),
        ),
      );
      const kinds = answers.map((a) => a.data.addWebhookChannel.__typename);
      expect(kinds.filter((k) => k === "WebhookChannelCreated")).toHaveLength(20);
      const refused = answers.map((a) => a.data.addWebhookChannel).filter((r) => r.__typename === "ValidationError");
      expect(refused).toHaveLength(10);
      expect(refused.every((r) => r.field === "input.url" && /at most 20 channels/.test(r.message))).toBe(true);
      const channels = await list(ada.token);
      expect(channels).toHaveLength(20);

      const id = channels[0].id;
      const patch = (rules: string) => gql(h.url, ada.token, `mutation($id: ID!) { setChannelRules(id: $id, rules: ${rules}) { __typename } }`, { id });
      const patched = await Promise.all([patch("{ minSeverity: ERROR }"), patch("{ delaySeconds: 30 }"), patch("{ scopes: [PERSON] }")]);
      expect(patched.map((p) => p.data.setChannelRules.__typename)).toEqual(["Channel", "Channel", "Channel"]);
      const after = (await list(ada.token)).find((c) => c.id === id);
      expect(after.rules).toEqual({ minSeverity: "ERROR", scopes: ["PERSON"], delaySeconds: 30 });
    });
  });
}
