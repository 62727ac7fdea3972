// Raw credentials never reach the store, on every provider: after issuing producer keys (admin
// and plugin-bound, by the CLI and the API), person tokens, sign-in codes and their redeemed
// tokens, using each of them and revoking them, every column of every table of the database is
// read back and searched for each secret, whole and without its visible prefix.
import { heraldCli } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

/** Every table's rows as text (bytes both as UTF-8 and as hex), so nothing hides in a blob. */
async function everyStoredValue(h: TestHerald, provider: string): Promise<string> {
  const store = storeOf(h.herald.database);
  const tables =
    provider === "postgresql"
      ? (await store.sql(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)).map(
          (r) => String(r.name),
        )
      : (await store.sql(`SELECT name FROM sqlite_master WHERE type = 'table'`)).map((r) => String(r.name));
  expect(tables).toEqual(expect.arrayContaining(["Credential", "Notification", "NotificationEvent"]));
  const dumps: string[] = [];
  for (const table of tables) {
    const rows = await store.sql(`SELECT * FROM "${table.replace(/"/g, '""')}"`);
    dumps.push(
      JSON.stringify(rows, (_key, value) => {
        if (value instanceof Uint8Array) return `${Buffer.from(value).toString("utf8")} ${Buffer.from(value).toString("hex")}`;
        if (value && typeof value === "object" && value.type === "Buffer" && Array.isArray(value.data)) {
          const bytes = Buffer.from(value.data);
          return `${bytes.toString("utf8")} ${bytes.toString("hex")}`;
        }
        return typeof value === "bigint" ? String(value) : value;
      }),
    );
  }
  return dumps.join("\n");
}

for (const provider of providers) {
  describe.skipIf(!provider.available)(`credentials at rest on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider);
    }, 60_000);
    afterAll(async () => h?.close());

    it("keeps no raw key, token or sign-in code in any table after issuing, using and revoking them", async () => {
      const secrets: string[] = [h.producerKey];
      const cli = heraldCli({ DATABASE_URL: h.databaseUrl });
      const admin = (await h.herald.services.auth.issueProducerKey("ops")).secret;
      const bound = (await cli.run("key", "create", "--name", "hook", "--plugin", "builds")).lastLine;
      const viaCli = await cli.createPerson("Ada");
      const adaToken = viaCli.token;
      const adaId = (await gql(h.url, adaToken, `{ viewer { id } }`)).data.viewer.id as string;
      const issued = (await gql(h.url, admin, `mutation($id: ID!) { issuePersonToken(personId: $id) { token } }`, { id: adaId })).data.issuePersonToken
        .token as string;
      const code = (await gql(h.url, admin, `mutation($id: ID!) { issueSignInCode(personId: $id) { code } }`, { id: adaId })).data.issueSignInCode
        .code as string;
      const redeemed = (await gql(h.url, null, `mutation($c: String!) { redeemSignInCode(code: $c) { token } }`, { c: code })).data.redeemSignInCode
        .token as string;
      secrets.push(admin, bound, adaToken, viaCli.signInCode, issued, code, redeemed);
      for (const secret of secrets) expect(secret.length).toBeGreaterThanOrEqual(16);

      // Use each one.
      const published = await gql(
        h.url,
        bound,
        `mutation($p: ID!) { publishNotification(input: { scope: PERSON, personId: $p, key: "k", title: "Built", source: { plugin: "builds" } }) { __typename } }`,
        { p: adaId },
      );
      expect(published.data.publishNotification.__typename).toBe("Notification");
      await gql(
        h.url,
        admin,
        `mutation { publishNotification(input: { scope: APPLICATION, key: "k", title: "All", source: { plugin: "ops" } }) { __typename } }`,
      );
      for (const token of [adaToken, issued, redeemed]) {
        expect((await gql(h.url, token, `{ viewer { id } notificationCounts { total } }`)).data.viewer.id).toBe(adaId);
      }

      // Revoke them: by the CLI (by visible start; refused within its check interval) and by signOut (at once).
      await cli.run("revoke", bound.slice(0, 16));
      await h.herald.services.auth.revoke(issued.slice(0, 16));
      await gql(h.url, redeemed, `mutation { signOut }`);
      expect(errorCode(await gql(h.url, redeemed, `{ viewer { id } }`))).toBe("UNAUTHENTICATED");

      const stored = await everyStoredValue(h, provider.name);
      expect(stored.length).toBeGreaterThan(1000);
      for (const secret of secrets) {
        const body = secret.replace(/^herald_[a-z]{2}_/, "");
        expect(stored.includes(secret), `a stored value holds a credential starting ${secret.slice(0, 12)}`).toBe(false);
        expect(stored.includes(body), `a stored value holds the body of a credential starting ${secret.slice(0, 12)}`).toBe(false);
      }
    }, 240_000);
  });
}
