// A revoked credential stops at once: its open streams (notificationEvents in both graphql-sse
// modes, a producer's actionInvocations) end within seconds on every instance, with a typed
// reason, and nothing more reaches them or is marked DELIVERED through them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { heraldCommand, type Served, type TwoInstances, twoInstances } from "../support/processes.ts";
import { providers, redisUrl, type TestDatabase } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";
import { eventually, headCursor, type Subscription, subscribe } from "../support/sse.ts";

const INVOCATIONS = `subscription { actionInvocations { notificationId } }`;
/** "A few seconds": the revocation must bite well inside this. */
const ENDS_WITHIN_MS = 5_000;

const endedAsRevoked = (sub: Subscription) =>
  eventually(() => sub.completed || sub.errors.length > 0, ENDS_WITHIN_MS, "the revoked credential's stream to end");
const unauthenticated = (sub: Subscription) => JSON.stringify(sub.errors).includes("UNAUTHENTICATED");

for (const provider of providers) {
  const transport = provider.name === "postgresql" && redisUrl ? " + Redis" : "";
  describe.skipIf(!provider.available)(`revocation on ${provider.name}${transport}`, () => {
    let h: TestHerald;

    beforeAll(async () => {
      const redis = provider.name === "postgresql" && redisUrl ? { redisUrl } : {};
      // The store check is slow here, so what ends the streams in the first tests is the revocation message.
      h = await startHerald(provider, { revocationCheckMs: 600_000, ...redis });
    });
    afterAll(async () => h?.close());

    it("signOut revokes the person token and ends its streams in both modes", async () => {
      const ada = await h.newPerson("Ada");
      const bob = await h.newPerson("Bob");
      const distinct = subscribe(h.url, ada.token, { singleConnection: false });
      const single = subscribe(h.url, ada.token, { singleConnection: true });
      const bobs = subscribe(h.url, bob.token);
      await eventually(() => h.herald.feed.listenersOf(ada.id) === 2 && h.herald.feed.listenersOf(bob.id) === 1, 10_000, "three streams");

      const out = await gql(h.url, ada.token, "mutation { signOut }");
      expect(out.data).toEqual({ signOut: true });
      await Promise.all([endedAsRevoked(distinct), endedAsRevoked(single)]);
      expect(unauthenticated(distinct)).toBe(true);
      expect(unauthenticated(single)).toBe(true);
      expect(h.herald.feed.listenersOf(ada.id)).toBe(0);
      expect(h.herald.services.realtime.openStreams(ada.id)).toBe(0);

      // Nothing published afterwards reaches the revoked streams or is marked delivered for them.
      const after = await h.publish({ scope: "PERSON", personId: ada.id, key: "after", title: "after sign-out" });
      await h.publish({ scope: "PERSON", personId: bob.id, key: "b", title: "for Bob" });
      await bobs.waitUntil((events) => events.some((e) => e.notification.title === "for Bob"));
      expect(distinct.events.concat(single.events)).toEqual([]);
      expect(await storeOf(h.herald.database).count("NotificationEvent", (q) => q.where("notificationId", "=", after.id).where("type", "=", "DELIVERED"))).toBe(
        0,
      );
      // Bob's stream is untouched, and the token itself is refused from now on.
      expect(bobs.completed).toBe(false);
      bobs.dispose();
      expect((await gql(h.url, ada.token, "{ viewer { id } }")).status).toBe(401);
      distinct.dispose();
      single.dispose();
    });

    it("signOut ends the person's preferencesEvents stream too", async () => {
      const cy = await h.newPerson("Cy");
      const preferences = subscribe(h.url, cy.token, { query: `subscription { preferencesEvents { quietMode } }`, variables: {} });
      await preferences.waitUntil((events) => events.length >= 1);
      expect((await gql(h.url, cy.token, "mutation { signOut }")).data).toEqual({ signOut: true });
      await endedAsRevoked(preferences);
      expect(unauthenticated(preferences)).toBe(true);
      // A producer turning quiet mode on afterwards reaches nobody through the revoked stream.
      const seen = preferences.events.length;
      await gql(h.url, h.producerKey, `mutation($p: ID!) { setPersonQuietMode(personId: $p, enabled: true) { quietMode } }`, { p: cy.id });
      expect(preferences.events.length).toBe(seen);
      preferences.dispose();
    });

    it("revoking a producer key ends its actionInvocations stream", async () => {
      const issued = await h.herald.services.auth.issueProducerKey("revoked plugin");
      const producer = subscribe(h.url, issued.secret, { query: INVOCATIONS, variables: {} });
      await h.attached();
      expect(await h.herald.services.auth.revoke(issued.id)).toBe(1);
      await endedAsRevoked(producer);
      expect(unauthenticated(producer)).toBe(true);
      await eventually(() => h.herald.feed.invocationListenerCount === 0, 5_000, "the invocation listener to be released");
      producer.dispose();
    });
  });
}

describe.skipIf(!providers[0]!.available)("revocation without a message on sqlite", () => {
  let h: TestHerald;
  beforeAll(async () => {
    h = await startHerald(providers[0]!, { revocationCheckMs: 200 });
  });
  afterAll(async () => h?.close());

  it("`herald revoke` from another process (no bus between them) ends the stream within the check interval", async () => {
    const ada = await h.newPerson("Ada");
    const sub = subscribe(h.url, ada.token);
    await h.attached(ada.id);
    const prefix = ada.token.slice(0, "herald_pt_".length + 6);
    const revoked = await heraldCommand(["revoke", prefix], { DATABASE_URL: h.databaseUrl });
    expect(revoked.lastLine).toBe("revoked 1");
    await endedAsRevoked(sub);
    expect(unauthenticated(sub)).toBe(true);
    sub.dispose();
  });
});

const postgres = providers.find((p) => p.name === "postgresql")!;
describe.skipIf(!postgres.available || !redisUrl)("revocation across two instances on PostgreSQL + Redis", () => {
  let db: TestDatabase;
  let two: TwoInstances;
  let a: Served;
  let b: Served;
  let key: string;
  beforeAll(async () => {
    db = await postgres.createDatabase();
    // The store check is off in effect: only the message on Redis can end B's streams in time.
    two = await twoInstances(db, redisUrl!, { HERALD_REVOCATION_CHECK_MS: "600000" });
    ({ a, b, key } = two);
  });
  afterAll(async () => {
    await two?.close();
    await db?.drop();
  });

  it("signing out through instance A ends the streams held on instance B", async () => {
    const person = await gql(a.url, key, `mutation { createPerson(input: { name: "Ada" }) { id } }`);
    const personId = person.data.createPerson.id as string;
    const token = (await gql(a.url, key, `mutation($id: ID!) { issuePersonToken(personId: $id) { token } }`, { id: personId })).data.issuePersonToken
      .token as string;
    const after = await headCursor(b.url, token);
    const onB = [subscribe(b.url, token, { after }), subscribe(b.url, token, { after, singleConnection: true })];
    const producerOnB = subscribe(b.url, key, { query: INVOCATIONS, variables: {} });
    // Attached once a publish reaches both (another process's listeners cannot be counted).
    await gql(
      a.url,
      key,
      `mutation($p: ID!) { publishNotification(input: { scope: PERSON, personId: $p, key: "k", title: "hello", source: { plugin: "t" } }) { __typename } }`,
      { p: personId },
    );
    await Promise.all(onB.map((s) => s.waitUntil((events) => events.some((e) => e.type === "CREATED"))));

    expect((await gql(a.url, token, "mutation { signOut }")).data).toEqual({ signOut: true });
    await Promise.all(onB.map(endedAsRevoked));
    for (const s of onB) expect(unauthenticated(s)).toBe(true);
    expect(producerOnB.completed).toBe(false); // another credential's stream on B goes on

    // A producer key can sign itself out too (through A; its stream is on B).
    expect((await gql(a.url, key, "mutation { signOut }")).data).toEqual({ signOut: true });
    await endedAsRevoked(producerOnB);
    expect(unauthenticated(producerOnB)).toBe(true);
    for (const s of [...onB, producerOnB]) s.dispose();
  });
});
