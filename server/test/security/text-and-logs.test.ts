// NUL and lone surrogates are a ValidationError naming the field on both providers, and nothing
// is written; client errors are logged once at debug without a stack, unexpected ones at error.
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, gql, resultFields } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";
import { leaks, postJson } from "./wire.ts";

interface LogLine {
  level: number;
  msg: string;
  code?: string;
  err?: { stack?: string };
}

function capturedLogger() {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: "debug" }, sink), lines };
}

const DEBUG = 20;
const ERROR = 50;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`unsafe text and error logs on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };
    const log = capturedLogger();

    beforeAll(async () => {
      h = await startHerald(provider, {}, { logger: log.logger });
      ada = await h.newPerson("Ada");
    });
    afterAll(async () => h?.close());

    const personCount = () => storeOf(h.herald.database).count("Person");

    it.each([
      ["NUL", "a\u0000b"],
      ["a lone high surrogate", "a\uD800b"],
      ["a lone low surrogate", "a\uDC00b"],
    ])("refuses %s in any string input as a ValidationError naming the field", async (_name, bad) => {
      const before = await personCount();
      const person = await gql(h.url, h.producerKey, "mutation($n: String!) { createPerson(input: { name: $n }) { id } }", { n: bad });
      expect(person.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "name" });
      expect(await personCount()).toBe(before);

      const publish = async (input: Record<string, unknown>) =>
        (
          await gql(h.url, h.producerKey, `mutation($i: PublishNotificationInput!) { publishNotification(input: $i) { ${resultFields("publish")} } }`, {
            i: { scope: "PERSON", personId: ada.id, key: "k", title: "ok", source: { plugin: "tests" }, ...input },
          })
        ).data?.publishNotification;
      const notificationsBefore = await storeOf(h.herald.database).count("Notification");
      expect(await publish({ title: bad })).toMatchObject({ __typename: "ValidationError", field: "title" });
      expect(await publish({ uiEffects: { note: [bad] } })).toMatchObject({ __typename: "ValidationError", field: "uiEffects.note.0" });
      expect(await publish({ key: bad })).toMatchObject({ __typename: "ValidationError", field: "key" });
      expect(await storeOf(h.herald.database).count("Notification")).toBe(notificationsBefore);

      // Ids and filters are strings too: a lookup refuses them rather than failing in the database.
      const lookup = await gql(h.url, ada.token, "query($id: ID!) { notification(id: $id) { id } }", { id: bad });
      expect(lookup.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "id" });
      // A paired surrogate is ordinary text.
      expect((await publish({ key: "emoji", title: "ok \uD83D\uDE00" })).title).toBe("ok \uD83D\uDE00");
    });

    it("logs client errors once at debug, without a stack, and never at error level", async () => {
      log.lines.length = 0;
      await gql(h.url, null, "{ viewer { id } }"); // UNAUTHENTICATED
      await gql(h.url, h.producerKey, "{ viewer { id } }"); // FORBIDDEN
      await gql(h.url, h.producerKey, 'mutation { createPerson(input: { name: "" }) { id } }'); // VALIDATION_ERROR
      await gql(h.url, "herald_pt_unknown", "{ viewer { id } }"); // UNAUTHENTICATED in the context
      await gql(h.url, ada.token, "{ viewer { nope } }"); // GRAPHQL_VALIDATION_FAILED
      const streamUrl = h.url.replace(/graphql$/, "graphql/stream");
      await postJson(
        streamUrl,
        { query: "subscription { notificationEvents { cursor } }" },
        { token: h.producerKey, headers: { accept: "text/event-stream" } },
      );
      expect(log.lines.filter((l) => l.level >= ERROR)).toEqual([]);
      expect(log.lines.filter((l) => l.err?.stack)).toEqual([]);
      for (const code of ["UNAUTHENTICATED", "FORBIDDEN", "VALIDATION_ERROR"]) {
        const logged = log.lines.filter((l) => l.code === code);
        expect(logged.length, code).toBeGreaterThan(0);
        expect(
          logged.every((l) => l.level === DEBUG),
          code,
        ).toBe(true);
      }
      // Once per error, not once per layer that saw it.
      expect(log.lines.filter((l) => l.code === "VALIDATION_ERROR")).toHaveLength(1);
    });

    it("logs an unexpected error once at error level with its stack, and tells the client nothing of it", async () => {
      log.lines.length = 0;
      // A broken store is the honest way to make the server fail: the person table is gone.
      const schema = new URL(h.herald.database.url.replace(/^file:/, "http://x/")).searchParams.get("schema");
      const table = (name: string) => (schema ? `"${schema}"."${name}"` : `"${name}"`);
      const rename = (from: string, to: string) => storeOf(h.herald.database).sql(`ALTER TABLE ${table(from)} RENAME TO "${to}"`);
      await rename("Person", "Person_away");
      try {
        const r = await gql(h.url, ada.token, "{ viewer { id } }");
        expect(r.errors?.[0]?.message).toBe("Unexpected error.");
        expect(JSON.stringify(r)).not.toMatch(leaks);
        expect(JSON.stringify(r)).not.toContain("Person_away");
        expect(errorCode(r)).toBe("INTERNAL_SERVER_ERROR");
      } finally {
        await rename("Person_away", "Person");
      }
      const errors = log.lines.filter((l) => l.level >= ERROR);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.err?.stack).toMatch(/Person/);
    });
  });
}
