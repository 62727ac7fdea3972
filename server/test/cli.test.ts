// The `herald` binary as a newcomer and an operator use it: real processes, real stores.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "./support/graphql.ts";
import { heraldCommand, serve, stop } from "./support/processes.ts";
import { providers, type TestDatabase } from "./support/providers.ts";

const herald = heraldCommand;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`herald CLI on ${provider.name}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await provider.createDatabase();
    });
    afterAll(async () => db?.drop());

    it("creates a person token and a producer key, each printed as the last line", async () => {
      const person = await herald(["person", "create", "--name", "Ada"], { DATABASE_URL: db.url });
      expect(person.lastLine).toMatch(/^herald_pt_[A-Za-z0-9_-]{43}$/);
      const key = await herald(["key", "create", "--name", "ci"], { DATABASE_URL: db.url });
      expect(key.lastLine).toMatch(/^herald_pk_[A-Za-z0-9_-]{43}$/);
      expect(person.stderr).not.toContain(person.lastLine);
    });

    // Five herald processes one after another: on a busy two-core machine that alone can take a minute.
    it("serves GraphQL after migrating, expires server-lifetime records on restart, and honours revocation", { timeout: 180_000 }, async () => {
      const key = (await herald(["key", "create", "--name", "svc"], { DATABASE_URL: db.url })).lastLine;
      const person = await herald(["person", "create", "--name", "Bob"], { DATABASE_URL: db.url });
      const personId = person.stdout.split("\n")[0]!.replace("person ", "").trim();
      let served = await serve({ DATABASE_URL: db.url, NODE_ENV: "production" });
      const health = await fetch(`${served.origin}/health`);
      expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
      const published = await gql(
        served.url,
        key,
        `mutation($p: ID!) { publishNotification(input: { scope: PERSON, personId: $p, key: "boot", title: "Bound to this run", source: { plugin: "cli" }, retention: { policy: UNTIL_SERVER_RESTART } }) { ... on Notification { id status } } }`,
        { p: personId },
      );
      expect(published.data.publishNotification.status).toBe("PENDING");
      await stop(served);

      served = await serve({ DATABASE_URL: db.url, NODE_ENV: "production" });
      const after = await gql(served.url, person.lastLine, `query($id: ID!) { notification(id: $id) { status } }`, {
        id: published.data.publishNotification.id,
      });
      expect(after.data.notification.status).toBe("EXPIRED");

      await herald(["revoke", key.slice(0, 16)], { DATABASE_URL: db.url });
      const refused = await gql(served.url, key, `mutation { completeRequest(requestId: "r") }`);
      expect(refused.status).toBe(401);
      expect(refused.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
      await stop(served);
    });
  });
}

describe("first start on the embedded default", () => {
  let dir: TestDatabase;
  beforeAll(async () => {
    dir = await providers[0]!.createDatabase();
  });
  afterAll(async () => dir?.drop());

  it("prints GraphiQL and a working demo person and producer key, once", async () => {
    const served = await serve({ DATABASE_URL: dir.url, NODE_ENV: "development" });
    try {
      const personToken = /person token:\s+(\S+)/.exec(served.output)?.[1];
      const producerKey = /producer key:\s+(\S+)/.exec(served.output)?.[1];
      const personId = /demo person id:\s+(\S+)/.exec(served.output)?.[1];
      expect(served.output).toContain(`GraphiQL:        ${served.url}`);
      expect(personToken).toMatch(/^herald_pt_/);
      const published = await gql(
        served.url,
        producerKey!,
        `mutation($p: ID!) { publishNotification(input: { scope: PERSON, personId: $p, key: "hi", title: "Welcome", source: { plugin: "demo" } }) { __typename } }`,
        { p: personId },
      );
      expect(published.data.publishNotification.__typename).toBe("Notification");
      const inbox = await gql(served.url, personToken!, `{ viewer { name } notificationCounts { unseen } }`);
      expect(inbox.data).toEqual({ viewer: { name: "Demo person" }, notificationCounts: { unseen: 1 } });
      const page = await fetch(served.url, { headers: { accept: "text/html" } });
      expect(await page.text()).toContain("GraphiQL");
    } finally {
      await stop(served);
    }
    const again = await serve({ DATABASE_URL: dir.url, NODE_ENV: "development" });
    expect(again.output).not.toContain("First start");
    await stop(again);
  });
});

describe("herald signin <personId>", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await providers[0]!.createDatabase();
  });
  afterAll(async () => db?.drop());

  it("prints a new one-time sign-in link for an existing person, each time another; an unknown person exits 2 naming the field", async () => {
    const env = { DATABASE_URL: db.url, HERALD_DASHBOARD_URL: "http://127.0.0.1:5999" };
    const person = await herald(["person", "create", "--name", "Ada"], env);
    const personId = person.stdout.split("\n")[0]!.replace("person ", "").trim();
    const [first, second] = [await herald(["signin", personId], env), await herald(["signin", personId], env)];
    expect(first.lastLine).toMatch(/^http:\/\/127\.0\.0\.1:5999\/signin\/herald_sc_[A-Za-z0-9_-]{43}$/);
    expect(second.lastLine).not.toBe(first.lastLine);
    const unknown = herald(["signin", "no-such-person"], env);
    await expect(unknown).rejects.toMatchObject({ code: 2, stdout: "", stderr: expect.stringContaining("invalid personId: no such person") });
  });
});

describe("the dashboard address for printed sign-in links", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await providers[0]!.createDatabase();
  });
  afterAll(async () => db?.drop());

  it("comes from HERALD_DASHBOARD_URL, checked at start, without a doubled slash", async () => {
    const person = await herald(["person", "create", "--name", "Ada"], { DATABASE_URL: db.url, HERALD_DASHBOARD_URL: "https://dash.example/herald/" });
    expect(person.stdout).toMatch(/^one-time sign-in link \(24 h\): https:\/\/dash\.example\/herald\/signin\/herald_sc_\S+$/m);
    const refused = herald(["person", "create", "--name", "Bob"], { DATABASE_URL: db.url, HERALD_DASHBOARD_URL: "dash.example" });
    await expect(refused).rejects.toMatchObject({ stderr: expect.stringContaining("Invalid environment: HERALD_DASHBOARD_URL") });
  });
});
