// /graphql/stream: reservations belong to the credential that made them and expire unused;
// every refusal is typed JSON with its status and nothing internal, never a 500 with a stack.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { eventually, headCursor, subscribe } from "../support/sse.ts";
import { expectRefusal, leaks, pipelined, postJson, send } from "./wire.ts";

const TOKEN_HEADER = "x-graphql-event-stream-token";
const EVENTS = "subscription { notificationEvents { cursor type } }";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`the stream door on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };
    let bob: { id: string; token: string };
    const streamUrl = () => h.url.replace(/graphql$/, "graphql/stream");
    const reserve = (token: string | null) => send(streamUrl(), { method: "PUT", token });

    beforeAll(async () => {
      // The request rate limit (tested in limits.test.ts) is lifted: these tests knock on the door thousands of times.
      h = await startHerald(provider, { reservationTtlMs: 3_000, reservationsPerCredential: 5, rateLimitPoints: 1_000_000 });
      ada = await h.newPerson("Ada");
      bob = await h.newPerson("Bob");
    });
    afterAll(async () => h?.close());

    it("refuses 20,000 anonymous reservations without keeping anything", { timeout: 120_000 }, async () => {
      const { host, pathname } = new URL(streamUrl());
      const put = `PUT ${pathname} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\n\r\n`;
      expect(await pipelined(streamUrl(), put, 20_000)).toEqual({ 401: 20_000 });
      // Nothing kept is counted: no stream or connection was opened for them, and a credential's
      // own reservations are untouched (the last test takes all five). The heap over the same
      // requests is measured by bench:retention.
      expect(h.herald.feed.listenerCount).toBe(0);
      expect(h.herald.services.realtime.heldConnections).toBe(0);
      expectRefusal(await reserve(null), 401, "UNAUTHENTICATED");
    });

    it("hands out unguessable tokens bound to the credential that reserved them", async () => {
      const first = await reserve(ada.token);
      const second = await reserve(ada.token);
      expect(first.status).toBe(201);
      // 24 random bytes, not a Math.random UUID.
      for (const token of [first.text, second.text]) expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(first.text).not.toBe(second.text);

      const token = first.text;
      const open = (credential: string | null) => send(`${streamUrl()}?token=${token}`, { token: credential, headers: { accept: "text/event-stream" } });
      expectRefusal(await open(null), 401, "UNAUTHENTICATED");
      expectRefusal(await open(bob.token), 403, "FORBIDDEN");
      expectRefusal(
        await postJson(streamUrl(), { query: EVENTS, extensions: { operationId: "x" } }, { token: bob.token, headers: { [TOKEN_HEADER]: token } }),
        403,
        "FORBIDDEN",
      );
      expectRefusal(await send(`${streamUrl()}?token=${token}&operationId=x`, { method: "DELETE", token: h.producerKey }), 403, "FORBIDDEN");

      // The owner still gets the stream: the refused attempts did not take it over.
      const controller = new AbortController();
      const owned = await fetch(`${streamUrl()}?token=${token}`, {
        headers: { accept: "text/event-stream", authorization: `Bearer ${ada.token}` },
        signal: controller.signal,
      });
      expect(owned.status).toBe(200);
      controller.abort();
    });

    it("drops reservations nobody opens, and limits how many one credential holds", async () => {
      const tokens = await Promise.all(Array.from({ length: 5 }, async () => (await reserve(bob.token)).text));
      const sixth = await reserve(bob.token);
      expectRefusal(sixth, 429, "TOO_MANY_REQUESTS");
      expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
      // Without operationId a DELETE on a live reservation is a 400; once dropped it is a 404.
      const probe = (token: string) => send(`${streamUrl()}?token=${token}`, { method: "DELETE", token: bob.token });
      expect((await probe(tokens[0]!)).status).toBe(400);
      await eventually(async () => (await probe(tokens[0]!)).status === 404, 10_000, "the reservation to expire");
      // Each expires on its own clock, a moment after the one before it.
      for (const token of tokens) await eventually(async () => (await probe(token)).status === 404, 10_000, "every reservation to expire");
      expectRefusal(await probe(tokens[4]!), 404, "NOT_FOUND");
      expect((await reserve(bob.token)).status).toBe(201);
    });

    it("still serves the stock graphql-sse client in single-connection mode", async () => {
      const sub = subscribe(h.url, ada.token, { singleConnection: true, after: await headCursor(h.url, ada.token) });
      await h.attached(ada.id);
      await h.publish({ scope: "PERSON", personId: ada.id, key: "door", title: "Through the door" });
      const [event] = await sub.waitFor(1);
      expect(event!.notification.title).toBe("Through the door");
      sub.dispose();
    });

    it("answers protocol and GraphQL mistakes with typed JSON errors and their status", async () => {
      const stream = { accept: "text/event-stream" };
      const revoked = await h.newPerson("Revoked");
      await h.herald.services.auth.revoke(revoked.token.slice(0, 16));
      const cases: [string, Promise<ReturnType<typeof send> extends Promise<infer R> ? R : never>, number, string][] = [
        ["syntax error", postJson(streamUrl(), { query: "subscription {" }, { token: ada.token, headers: stream }), 400, "GRAPHQL_PARSE_FAILED"],
        [
          "mutation over GET",
          send(`${streamUrl()}?query=${encodeURIComponent('mutation { createPerson(input: { name: "x" }) { id } }')}`, {
            token: h.producerKey,
            headers: stream,
          }),
          405,
          "METHOD_NOT_ALLOWED",
        ],
        [
          "too many aliases",
          postJson(
            streamUrl(),
            { query: `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: viewer { id }`).join(" ")} }` },
            { token: ada.token, headers: stream },
          ),
          400,
          "GRAPHQL_VALIDATION_FAILED",
        ],
        ["revoked credential", postJson(streamUrl(), { query: EVENTS }, { token: revoked.token, headers: stream }), 401, "UNAUTHENTICATED"],
        ["no credential", postJson(streamUrl(), { query: EVENTS }, { headers: stream }), 401, "UNAUTHENTICATED"],
        ["producer key on a person's stream", postJson(streamUrl(), { query: EVENTS }, { token: h.producerKey, headers: stream }), 403, "FORBIDDEN"],
        ["unknown reservation", send(`${streamUrl()}?token=nope`, { token: ada.token, headers: stream }), 404, "NOT_FOUND"],
        [
          "body too large",
          postJson(streamUrl(), { query: `{ ${"viewer{id} ".repeat(30_000)}}` }, { token: ada.token, headers: stream }),
          413,
          "PAYLOAD_TOO_LARGE",
        ],
        ["missing query", postJson(streamUrl(), {}, { token: ada.token, headers: stream }), 400, "BAD_REQUEST"],
        [
          "unsupported media type",
          send(streamUrl(), { method: "POST", body: "x", token: ada.token, headers: { ...stream, "content-type": "text/plain" } }),
          415,
          "UNSUPPORTED_MEDIA_TYPE",
        ],
      ];
      for (const [name, pending, status, code] of cases) {
        const response = await pending;
        expect.soft({ name, status: response.status, code: response.json?.errors?.[0]?.extensions?.code }).toEqual({ name, status, code });
        expect.soft(response.text, name).not.toMatch(leaks);
      }
    });

    it("refuses a subscription after another person's cursor with a code, not a protocol error", async () => {
      await h.publish({ scope: "PERSON", personId: bob.id, key: "bobs", title: "Bob's" });
      const bobsCursor = await headCursor(h.url, bob.token);
      const stolen = await postJson(
        streamUrl(),
        { query: "subscription($a: String) { notificationEvents(after: $a) { cursor } }", variables: { a: bobsCursor } },
        { token: ada.token, headers: { accept: "text/event-stream" } },
      );
      expectRefusal(stolen, 400, "VALIDATION_ERROR");
      expect(stolen.json?.errors?.[0]?.extensions?.field).toBe("after");
    });
  });
}
