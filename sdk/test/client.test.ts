// The SDK's request/response side against a real server: pagination, dismissal results,
// producer results and typed errors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createHeraldClient,
  type HeraldClient,
  HeraldForbiddenError,
  HeraldNetworkError,
  HeraldNotFoundError,
  HeraldUnauthenticatedError,
  HeraldValidationError,
} from "../src/index.ts";
import { eventually, startClients, startServer, type TestClients, type TestServer } from "./support/server.ts";

describe("HeraldClient", () => {
  let clients: TestClients;
  let server: TestServer;
  let producer: HeraldClient;
  let ada: HeraldClient;

  beforeAll(async () => {
    clients = await startClients();
    server = clients.server;
    // HeraldClient (both sides on one object) stays for code written before the split.
    producer = createHeraldClient({ url: server.url, token: server.producerKey });
    ada = createHeraldClient({ url: server.url, token: server.person.token });
  });
  afterAll(async () => {
    producer?.close();
    ada?.close();
    await clients?.close();
  });

  const publish = async (key: string, title = key) => {
    const r = await producer.publish({ scope: "PERSON", personId: server.person.id, key, title, source: { plugin: "sdk" } });
    if (!r.ok) throw new Error(r.message);
    return r.notification;
  };

  it("pages through a few hundred records with no duplicate or gap while new ones arrive", async () => {
    for (let i = 0; i < 300; i += 25) await Promise.all(Array.from({ length: 25 }, (_, j) => publish(`p-${i + j}`)));
    const expected: string[] = [];
    for await (const n of ada.all({ pageSize: 100 })) expected.push(n.id);
    expect(expected).toHaveLength(300);

    const walked: string[] = [];
    let after: string | null = null;
    let extra = 0;
    do {
      const page = await ada.page({ first: 37, after });
      walked.push(...page.items.map((n) => n.id));
      await publish(`late-${extra++}`); // lands before the first page, not in the walk
      after = page.nextCursor;
    } while (after);
    expect(walked).toEqual(expected);
    expect(new Set(walked).size).toBe(walked.length);
    expect((await ada.counts()).total).toBe(300 + extra);
  });

  it("returns a dismissal conflict as a typed result carrying the current record", async () => {
    const v1 = await publish("conflict", "v1");
    const v2 = await publish("conflict", "v2");
    const stale = await ada.dismiss(v1);
    expect(stale).toMatchObject({ ok: false, reason: "conflict", current: { id: v1.id, revision: 2, title: "v2" } });
    const done = await ada.dismiss(v2);
    expect(done).toMatchObject({ ok: true, notification: { status: "DISMISSED", revision: 3 } });
  });

  it("returns an operation mismatch as a typed result and throws validation errors with the field", async () => {
    const op = (id: string) => ({ id, state: "running", cancellable: true });
    const first = await producer.publish({
      scope: "PERSON",
      personId: server.person.id,
      key: "op",
      title: "Run",
      source: { plugin: "sdk" },
      operation: op("run-2"),
    });
    expect(first.ok).toBe(true);
    const late = await producer.publish({
      scope: "PERSON",
      personId: server.person.id,
      key: "op",
      title: "Old",
      source: { plugin: "sdk" },
      operation: op("run-1"),
    });
    expect(late).toMatchObject({ ok: false, reason: "operation_mismatch", current: { operation: { id: "run-2" } } });
    const invalid = producer.publish({ scope: "PERSON", personId: server.person.id, key: "", title: "x", source: { plugin: "sdk" } });
    await expect(invalid).rejects.toBeInstanceOf(HeraldValidationError);
    await expect(invalid).rejects.toMatchObject({ field: "key", code: "VALIDATION_ERROR" });
    await expect(ada.snooze("whatever", new Date(Date.now() - 1000))).rejects.toMatchObject({ field: "until" });
  });

  it("patches the active occurrence of a key with updateByKey, and throws not-found for an unknown key", async () => {
    const first = await publish("heartbeat", "Indexing");
    const target = { scope: "PERSON" as const, personId: server.person.id, key: "heartbeat" };
    const beat = await producer.updateByKey(target, { body: "40%" });
    expect(beat).toMatchObject({ ok: true, notification: { id: first.id, revision: 2, title: "Indexing", body: "40%" } });
    await expect(producer.updateByKey({ ...target, key: "no-such-key" }, { body: "x" })).rejects.toBeInstanceOf(HeraldNotFoundError);
  });

  it("types authentication, permission and network failures", async () => {
    await expect(createHeraldClient({ url: server.url, token: "herald_pt_nope" }).viewer()).rejects.toBeInstanceOf(HeraldUnauthenticatedError);
    await expect(producer.viewer()).rejects.toBeInstanceOf(HeraldForbiddenError);
    await expect(ada.publish({ scope: "APPLICATION", key: "k", title: "t", source: { plugin: "x" } })).rejects.toBeInstanceOf(HeraldForbiddenError);
    const offline = createHeraldClient({ url: "http://127.0.0.1:9/graphql", token: server.person.token });
    await expect(offline.counts()).rejects.toBeInstanceOf(HeraldNetworkError);
  });

  it("covers the rest of the person side: seen, quiet mode, snooze, get", async () => {
    const n = await publish("misc");
    expect((await ada.markSeen([n.id]))[0]).toMatchObject({ id: n.id, status: "SEEN" });
    expect(await ada.markAllSeen()).toBeGreaterThan(0);
    expect((await ada.counts()).unseen).toBe(0);
    expect(await ada.setQuietMode(true)).toBe(true);
    expect((await ada.viewer()).quietMode).toBe(true);
    await ada.setQuietMode(false);
    const snoozed = await ada.snooze(n.id, new Date(Date.now() + 3_600_000));
    expect(snoozed.snoozedUntil).not.toBeNull();
    expect((await ada.unsnooze(n.id)).snoozedUntil).toBeNull();
    expect(await ada.get(n.id)).toMatchObject({ id: n.id });
    expect(await ada.get("missing")).toBeNull();
  });

  it("manages engagements and remembered facts on the producer side", async () => {
    const engagement = await producer.createEngagement({ name: "Launch", operatorPersonId: server.person.id });
    expect(engagement).toMatchObject({ name: "Launch", operatorPersonId: server.person.id });
    const bob = await server.newPerson("Bob");
    expect(await producer.addEngagementMember({ engagementId: engagement.id, personId: bob.id })).toMatchObject({ role: "CONTRIBUTOR" });
    const r = await producer.publish({
      scope: "PERSON",
      personId: server.person.id,
      key: "eng",
      title: "In launch",
      source: { plugin: "sdk" },
      engagementId: engagement.id,
    });
    expect(r.ok && r.notification.engagement).toEqual({ id: engagement.id, name: "Launch" });
    expect((await producer.rememberFact({ personId: server.person.id, content: "Birthday is March 15" })).content).toBe("Birthday is March 15");
  });
});

describe("agent sessions", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it("reports exchanges and reads the session's label with generations as strings", async () => {
    const producer = createHeraldClient({ url: server.url, token: server.producerKey });
    const ada = createHeraldClient({ url: server.url, token: server.person.token });
    const exchange = {
      harness: "pi",
      sessionId: "sdk-1",
      cwd: "/src/herald",
      userText: "Rename the billing module",
      assistantText: "Renamed.",
      personId: server.person.id,
    };
    const first = await producer.reportExchange({ ...exchange, completionId: "e1" });
    expect(first).toMatchObject({ duplicate: false, session: { sourceGeneration: "1", harness: "pi", sessionId: "sdk-1" } });
    expect(first.notification).toMatchObject({ key: "exchange", scope: "SESSION", title: "herald · pi finished" });
    expect(await producer.reportExchange({ ...exchange, completionId: "e1" })).toMatchObject({ duplicate: true, notification: null });
    await expect(producer.reportExchange({ ...exchange, completionId: "e2", harness: "cursor" })).rejects.toMatchObject({ field: "harness" });
    await eventually(async () => (await ada.sessionMetadata("pi", "sdk-1"))?.labelGeneration === "1");
    const mine = await ada.sessionMetadata("pi", "sdk-1");
    expect(mine).toMatchObject({ label: "Rename Billing Module Renamed", completionId: "e1", sourceGeneration: "1", labelGeneration: "1" });
    expect(typeof mine!.sourceGeneration).toBe("string");
    expect(await ada.sessionMetadata("pi", "someone-else")).toBeNull();
    producer.close();
    ada.close();
  });
});

describe("sign-in codes", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it("turns a one-time code into a working person token, once", async () => {
    const producer = createHeraldClient({ url: server.url, token: server.producerKey });
    const { code } = await producer.issueSignInCode(server.person.id);
    const anonymous = createHeraldClient({ url: server.url });
    const token = await anonymous.redeemSignInCode(code);
    expect(token).toMatch(/^herald_pt_/);
    expect((await createHeraldClient({ url: server.url, token }).viewer()).id).toBe(server.person.id);
    await expect(anonymous.redeemSignInCode(code)).rejects.toBeInstanceOf(HeraldUnauthenticatedError);
    await expect(anonymous.redeemSignInCode("herald_sc_forged")).rejects.toBeInstanceOf(HeraldUnauthenticatedError);
  });
});
