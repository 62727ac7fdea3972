// The producers' HTTP/JSON API (/api/v1) against a real server on both providers: what a curl
// or a Python hook sees, status by outcome, the server's limits in front of it, and the README's
// own examples run as written.
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { expectRefusal, leaks, postJson, send } from "../security/wire.ts";
import { storeOf } from "../support/store.ts";

const run = promisify(execFile);
const repoFile = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");

/** The first fenced block of `language` in the README that contains `marker`. */
function readmeBlock(language: string, marker: string): string {
  const blocks = [...repoFile("README.md").matchAll(/```(\w+)\n([\s\S]*?)```/g)];
  const block = blocks.find(([, lang, body]) => lang === language && body!.includes(marker));
  if (!block) throw new Error(`README has no ${language} block with ${marker}`);
  return block[2]!;
}

/** A python3 that has requests (the README's example needs it); CI must have one. */
const python = ["python3", "/usr/bin/python3"].find((candidate) => {
  try {
    execFileSync(candidate, ["-c", "import requests"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
});
if (!python && process.env.CI === "true") throw new Error("CI needs python3 with requests for the README's Python example");

for (const provider of providers) {
  describe.skipIf(!provider.available)(`producer HTTP API on ${provider.name}`, () => {
    let h: TestHerald;
    let base: string;
    let ada: { id: string; token: string };
    beforeAll(async () => {
      h = await startHerald(provider);
      base = h.url.replace(/\/graphql$/, "");
      ada = await h.newPerson("Ada");
    });
    afterAll(async () => h?.close());

    const api = (operation: string, body: unknown, token: string | null = h.producerKey) => postJson(`${base}/api/v1/${operation}`, body, { token });
    const publishInput = (input: Record<string, unknown> = {}) => ({
      input: { scope: "PERSON", personId: ada.id, key: "build:1", title: "Build failed", severity: "ERROR", source: { plugin: "ci" }, ...input },
    });
    const keysOf = async (person = ada) => {
      const listed = await gql(h.url, person.token, "{ notifications(first: 100) { edges { node { id key revision title } } } }");
      return (listed.data.notifications.edges as { node: { id: string; key: string; revision: number; title: string } }[]).map((e) => e.node);
    };

    it("publishes, and publishing the same key again revises the one record (idempotent by key)", async () => {
      const first = await api("publish-notification", publishInput());
      expect(first.status).toBe(200);
      expect(first.headers.get("x-request-id")).toBeTruthy();
      expect(first.json).toMatchObject({
        __typename: "Notification",
        key: "build:1",
        revision: 1,
        status: "PENDING",
        severity: "ERROR",
        source: { plugin: "ci" },
      });
      const again = await api("publish-notification", publishInput({ title: "Build failed twice" }));
      expect(again.status).toBe(200);
      const id = (first.json as unknown as { id: string }).id;
      expect(again.json).toMatchObject({ id, revision: 2, title: "Build failed twice" });
      expect((await keysOf()).filter((n) => n.key === "build:1")).toEqual([{ id, key: "build:1", revision: 2, title: "Build failed twice" }]);
    });

    it("answers a ValidationError 422 with its field and message, and writes nothing", async () => {
      const empty = await api("publish-notification", publishInput({ key: "v:1", title: "   " }));
      expect(empty.status).toBe(422);
      expect(empty.json).toEqual({ __typename: "ValidationError", field: "title", message: expect.any(String) });
      // Values the schema itself refuses name the field too (graphql-js's path, without "input.").
      const loud = await api("publish-notification", publishInput({ key: "v:2", severity: "LOUD" }));
      expect(loud.status).toBe(422);
      expect(loud.json?.errors?.[0]?.extensions).toEqual({ code: "VALIDATION_ERROR", field: "severity" });
      const untitled = await api("publish-notification", { input: { scope: "PERSON", personId: ada.id, key: "v:3", source: { plugin: "ci" } } });
      expect(untitled.status).toBe(422);
      expect(untitled.json?.errors?.[0]?.extensions).toEqual({ code: "VALIDATION_ERROR", field: "title" });
      const nothing = await api("publish-notification", {});
      expect(nothing.status).toBe(422);
      expect(nothing.json?.errors?.[0]?.extensions).toEqual({ code: "VALIDATION_ERROR", field: "input" });
      for (const response of [empty, loud, untitled, nothing]) expect(response.text).not.toMatch(leaks);
      for (const body of ["null", "[1]", '"text"', "{ not json"]) expectRefusal(await api("publish-notification", body), 400, "BAD_REQUEST");
      expect((await keysOf()).map((n) => n.key).filter((k) => k.startsWith("v:"))).toEqual([]);
    });

    it("answers a refused transition 409 with the current record, and an unknown record 404", async () => {
      const published = await api("publish-notification", publishInput({ key: "deploy" }));
      const id = (published.json as unknown as { id: string }).id;
      const resolved = await api("resolve-notification", { id, resolution: { actionId: "ok" } });
      expect(resolved.status).toBe(200);
      expect(resolved.json).toMatchObject({ __typename: "Notification", id, status: "RESOLVED" });
      const expired = await api("expire-notification", { id, reason: "late" });
      expect(expired.status).toBe(409);
      expect(expired.json).toMatchObject({ __typename: "NotificationTransitionError", message: expect.any(String), current: { id, status: "RESOLVED" } });
      const mismatch = await api("publish-notification", publishInput({ key: "op", operation: { id: "run-1", type: "build" } }));
      expect(mismatch.status).toBe(200);
      const wrongRun = await api("resolve-notification", { id: (mismatch.json as unknown as { id: string }).id, operationId: "run-0" });
      expect(wrongRun.status).toBe(409);
      expect(wrongRun.json).toMatchObject({ __typename: "OperationMismatchError" });
      const missing = await api("expire-notification", { id: "no-such-notification" });
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual({ __typename: "NotFoundError", message: expect.any(String) });
    });

    it("runs the other producer operations: person, session, exchange, request completion, event, read", async () => {
      const person = await api("create-person", { input: { name: "Grace" } });
      expect(person.status).toBe(200);
      const personId = (person.json as unknown as { id: string }).id;
      const session = await api("create-session", { input: { harness: "pi", sessionId: "s-http", ownerPersonId: personId } });
      expect(session.status).toBe(200);
      expect(session.json).toMatchObject({ __typename: "Session", harness: "pi", sessionId: "s-http" });
      const exchange = await api("report-exchange", {
        input: { harness: "pi", sessionId: "s-http", completionId: "c-1", cwd: "/src/herald", userText: "Fix the redirect", assistantText: "Fixed." },
      });
      expect(exchange.status).toBe(200);
      expect(exchange.json).toMatchObject({ __typename: "ReportedExchange", duplicate: false });
      const read = await send(`${base}/api/v1/session?harness=pi&sessionId=s-http`, { token: h.producerKey });
      expect(read.status).toBe(200);
      expect(read.json).toMatchObject({ __typename: "Session", sourceGeneration: "1" });
      const absent = await send(`${base}/api/v1/session?harness=pi&sessionId=nobody`, { token: h.producerKey });
      expectRefusal(absent, 404, "NOT_FOUND");
      await api("publish-notification", publishInput({ key: "req", requestId: "r-http", retention: { policy: "UNTIL_REQUEST_COMPLETE" } }));
      const completed = await api("complete-request", { requestId: "r-http" });
      expect({ status: completed.status, body: completed.json }).toEqual({ status: 200, body: 1 });
      const emitted = await api("emit-event", { input: { type: "tests.ping", actorPersonId: personId } });
      expect(emitted.status).toBe(200);
      expect(emitted.json).toMatchObject({ __typename: "EmitEventSuccess", type: "tests.ping", duplicate: false });
    });

    it("authenticates every route: 401 without or with a bad key, 403 for a person token, nothing written", async () => {
      expectRefusal(await api("publish-notification", publishInput({ key: "anon" }), null), 401, "UNAUTHENTICATED");
      expectRefusal(await api("publish-notification", publishInput({ key: "forged" }), "herald_pk_forged"), 401, "UNAUTHENTICATED");
      expectRefusal(await api("publish-notification", publishInput({ key: "person" }), ada.token), 403, "FORBIDDEN");
      expectRefusal(await send(`${base}/api/v1/person-preferences?personId=${ada.id}`, { token: ada.token }), 403, "FORBIDDEN");
      expectRefusal(await send(`${base}/api/v1/person-preferences?personId=${ada.id}`), 401, "UNAUTHENTICATED");
      expect((await keysOf()).map((n) => n.key).filter((k) => ["anon", "forged", "person"].includes(k))).toEqual([]);
    });

    it("offers producer operations only: person operations, streams and SOFA's webhooks are not routes", async () => {
      const published = await api("publish-notification", publishInput({ key: "seen" }));
      const id = (published.json as unknown as { id: string }).id;
      for (const [path, method] of [
        ["mark-notifications-seen", "POST"],
        ["dismiss-notification", "POST"],
        ["issue-person-token", "POST"],
        ["viewer", "GET"],
        ["notifications", "GET"],
        ["webhook", "POST"],
        ["docs", "GET"],
      ] as const) {
        const response = await send(`${base}/api/v1/${path}`, {
          method,
          token: ada.token,
          headers: { "content-type": "application/json" },
          body: method === "POST" ? JSON.stringify({ ids: [id], id, personId: ada.id }) : null,
        });
        expect({ path, status: response.status }).toEqual({ path, status: 404 });
      }
      const listed = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { status } }`, { id });
      expect(listed.data.notification.status).not.toBe("SEEN");
    });

    it("refuses a body over the limit with 413, as /graphql does, and writes nothing", async () => {
      const huge = JSON.stringify(publishInput({ key: "huge", body: "x".repeat(h.herald.tuning.maxBodyBytes) }));
      const refused = await api("publish-notification", huge);
      expectRefusal(refused, 413, "PAYLOAD_TOO_LARGE");
      expect((await keysOf()).map((n) => n.key)).not.toContain("huge");
    });

    it("serves its OpenAPI document, the one committed as docs/openapi.json", async () => {
      const served = await send(`${base}/api/v1/openapi.json`);
      expect(served.status).toBe(200);
      const document = served.json as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
      expect(document).toEqual(JSON.parse(repoFile("docs/openapi.json")));
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          "/publish-notification",
          "/update-notification",
          "/resolve-notification",
          "/expire-notification",
          "/complete-request",
          "/emit-event",
          "/report-exchange",
          "/create-person",
          "/create-session",
          "/create-engagement",
          "/remember-fact",
        ]),
      );
      expect(Object.keys(document.paths)).not.toContain("/mark-notifications-seen");
      expect(Object.keys(document.paths["/publish-notification"]!.post!.responses)).toEqual(
        expect.arrayContaining(["200", "401", "403", "404", "409", "413", "422", "429"]),
      );
    });

    it("runs the README's curl one-liner as written", async () => {
      const script = readmeBlock("sh", "/api/v1/publish-notification");
      const person = await h.newPerson("Curl");
      const { stdout } = await run("bash", ["-c", script], {
        env: { ...process.env, HERALD_URL: base, HERALD_PRODUCER_KEY: h.producerKey, PERSON: person.id },
      });
      expect(JSON.parse(stdout)).toMatchObject({ __typename: "Notification", key: "build:42", title: "Build failed", revision: 1 });
      expect((await keysOf(person)).map((n) => n.key)).toEqual(["build:42"]);
    });

    it.skipIf(!python)("runs the README's Python requests example as written", async () => {
      const script = readmeBlock("python", "/api/v1/publish-notification");
      const person = await h.newPerson("Py");
      const env = { ...process.env, HERALD_URL: base, HERALD_PRODUCER_KEY: h.producerKey, PERSON: person.id };
      const first = await run(python!, ["-c", script], { env });
      const [id, revision] = first.stdout.trim().split(" ");
      expect(revision).toBe("1");
      const second = await run(python!, ["-c", script], { env });
      expect(second.stdout.trim()).toBe(`${id} 2`);
      expect((await keysOf(person)).map((n) => n.key)).toEqual(["build:42"]);
    });
  });
}

describe("producer HTTP API behind the request rate limit", () => {
  let h: TestHerald;
  beforeAll(async () => {
    h = await startHerald(providers[0]!, { rateLimitPoints: 3, rateLimitWindowSeconds: 60 });
  });
  afterAll(async () => h?.close());

  it("answers 429 with Retry-After once the key's requests are spent, before running the operation", async () => {
    const base = h.url.replace(/\/graphql$/, "");
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await postJson(`${base}/api/v1/create-person`, { input: { name: `P${i}` } }, { token: h.producerKey });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expectRefusal(last!, 429, "RATE_LIMITED");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await storeOf(h.herald.database).count("Person")).toBe(3);
  });
});
