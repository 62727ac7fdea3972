// reportExchange over real HTTP on both stores: counting, naming cadence, the completion
// notification, late labeler results, unusable label state and the uint64 range.
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LabelAnswer } from "@herald/server/domain/session-labels";
import type { Labeler, LabelRequest } from "@herald/server/app";
import { errorCode, gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";
import { eventually } from "../support/sse.ts";

const REPORT = `mutation($input: ReportExchangeInput!) {
  reportExchange(input: $input) {
    __typename
    ... on ReportedExchange { duplicate session { id label completionId sourceGeneration labelGeneration }
      notification { id key revision scope title body status source { plugin subsystem } } }
    ... on ValidationError { field message }
  }
}`;
const SESSION = `query($h: String!, $s: String!) { session(harness: $h, sessionId: $s) { id label completionId sourceGeneration labelGeneration } }`;

/** A labeler whose answers the test hands out one request at a time. */
class ScriptedLabeler implements Labeler {
  readonly name = "scripted";
  readonly requests: { request: LabelRequest; answer(a: LabelAnswer | Error): void }[] = [];
  /** When set, every request is answered with it immediately. */
  auto: ((request: LabelRequest) => LabelAnswer | Error) | null = null;
  label(request: LabelRequest): Promise<LabelAnswer> {
    return new Promise((resolve, reject) => {
      const answer = (a: LabelAnswer | Error) => (a instanceof Error ? reject(a) : resolve(a));
      if (this.auto) return answer(this.auto(request));
      this.requests.push({ request, answer });
    });
  }
}

/** Log lines of the server, to see the `labels unavailable` category. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: "debug" }, stream), lines };
}

for (const provider of providers) {
  describe.skipIf(!provider.available)(`agent sessions on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };
    let bob: { id: string; token: string };
    const labeler = new ScriptedLabeler();
    const logs = capturingLogger();
    let counter = 0;

    const report = async (input: Record<string, unknown>, key = h.producerKey) => {
      h.clock.tick();
      const r = await gql(h.url, key, REPORT, { input });
      if (r.errors) throw new Error(JSON.stringify(r.errors));
      return r.data.reportExchange;
    };
    const exchange = (sessionId: string, n: number | string, over: Record<string, unknown> = {}) => ({
      harness: "claude-code",
      sessionId,
      completionId: `msg_${n}`,
      cwd: "/home/ada/src/herald",
      userText: `please do step ${n}`,
      assistantText: `Did step ${n}.`,
      personId: ada.id,
      ...over,
    });
    const session = async (sessionId: string, harness = "claude-code") => (await gql(h.url, h.producerKey, SESSION, { h: harness, s: sessionId })).data.session;
    const unavailable = () => logs.lines.filter((l) => l.category === "labels unavailable");
    const fresh = () => `s-${provider.name}-${++counter}`;

    beforeAll(async () => {
      h = await startHerald(provider, {}, { labeler, logger: logs.logger });
      ada = await h.newPerson("Ada");
      bob = await h.newPerson("Bob");
    });
    afterAll(async () => {
      for (const held of labeler.requests.splice(0)) held.answer(new Error("test over"));
      await h?.close();
    });

    it("creates the session, counts the exchange and notifies its owner under the cwd's project name", async () => {
      labeler.auto = () => ({ kind: "label", text: "Fix Login Redirect" });
      const id = fresh();
      const first = await report(exchange(id, 1, { assistantText: "  I fixed the redirect.\n\nAll tests pass." }));
      expect(first.__typename).toBe("ReportedExchange");
      expect(first.duplicate).toBe(false);
      expect(first.session).toMatchObject({ completionId: "msg_1", sourceGeneration: "1" });
      expect(first.notification).toMatchObject({
        key: "exchange",
        scope: "SESSION",
        revision: 1,
        title: "herald · claude-code finished",
        body: "I fixed the redirect. All tests pass.",
        source: { plugin: "claude-code", subsystem: "exchange" },
      });
      await h.herald.services.sessions.settled();
      expect(await session(id)).toMatchObject({ label: "Fix Login Redirect", labelGeneration: "1", sourceGeneration: "1" });
      // The first exchange's notification was retitled in place with the label.
      const retitled = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { revision title } }`, { id: first.notification.id });
      expect(retitled.data.notification).toEqual({ revision: 2, title: "Fix Login Redirect · claude-code finished" });

      // The next exchange is titled by the label and updates the same notification in place.
      const second = await report(exchange(id, 2));
      expect(second.notification).toMatchObject({ id: first.notification.id, revision: 3, title: "Fix Login Redirect · claude-code finished" });
      const inbox = await gql(h.url, ada.token, `{ notifications { edges { node { id title } } } }`);
      expect(inbox.data.notifications.edges.map((e: any) => e.node)).toContainEqual({ id: first.notification.id, title: second.notification.title });
      const others = await gql(
        h.url,
        bob.token,
        `query($h: String!, $s: String!) { session(harness: $h, sessionId: $s) { id } notificationCounts { total } }`,
        { h: "claude-code", s: id },
      );
      expect(others.data).toEqual({ session: null, notificationCounts: { total: 0 } });
      labeler.auto = null;
    });

    it("a retried completion id changes nothing: no count, no notification, no naming", async () => {
      labeler.auto = () => ({ kind: "label", text: "Some Stable Label" });
      const id = fresh();
      const first = await report(exchange(id, 1));
      await h.herald.services.sessions.settled();
      const retried = await report(exchange(id, 1, { userText: "different text entirely", assistantText: "changed" }));
      expect(retried).toMatchObject({ duplicate: true, notification: null, session: { sourceGeneration: "1", labelGeneration: "1" } });
      const current = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { revision body } }`, { id: first.notification.id });
      // Revision 2 is the label's retitle, not the retry.
      expect(current.data.notification).toEqual({ revision: 2, body: "Did step 1." });
      labeler.auto = null;
    });

    it("a retry of an exchange whose notification never went out publishes it, without counting again", async () => {
      labeler.auto = () => ({ kind: "label", text: "Half Done Report" });
      const id = fresh();
      const first = await report(exchange(id, 1));
      await h.herald.services.sessions.settled();
      // As if the first report failed between counting and publishing.
      const probe = storeOf(h.herald.database);
      await probe.execute(probe.build.updateTable("SessionExchange").set({ notificationId: null }).where("sessionId", "=", first.session.id));
      const retried = await report(exchange(id, 1));
      expect(retried).toMatchObject({ duplicate: true, session: { sourceGeneration: "1" }, notification: { id: first.notification.id, revision: 3 } });
      expect(retried.notification.title).toBe("Half Done Report · claude-code finished");
      expect(await report(exchange(id, 1))).toMatchObject({ duplicate: true, notification: null });
      labeler.auto = null;
    });

    it("asks for a label at exchanges 1, 5 and 9, and only when the material changed", async () => {
      const asked: bigint[] = [];
      labeler.auto = (request) => {
        asked.push(BigInt(request.material.user.replace(/\D/g, "")));
        return { kind: "label", text: `Label For Step ${request.material.user.replace(/\D/g, "")}` };
      };
      const id = fresh();
      for (let n = 1; n <= 10; n++) {
        await report(exchange(id, n));
        await h.herald.services.sessions.settled();
      }
      expect(asked).toEqual([1n, 5n, 9n]);
      expect(await session(id)).toMatchObject({ label: "Label For Step 9", labelGeneration: "9", sourceGeneration: "10", completionId: "msg_10" });

      // Identical material counts and notifies but does not ask again.
      const same = fresh();
      asked.length = 0;
      labeler.auto = () => new Error("model offline");
      await report(exchange(same, "a", { userText: "same words", assistantText: "same answer" }));
      await h.herald.services.sessions.settled();
      labeler.auto = () => {
        asked.push(0n);
        return { kind: "label", text: "Finally Named Session" };
      };
      const repeat = await report(exchange(same, "b", { userText: "same words", assistantText: "same answer" }));
      await h.herald.services.sessions.settled();
      expect(repeat.notification.revision).toBe(2);
      expect(asked).toEqual([]);
      expect(await session(same)).toMatchObject({ label: "", labelGeneration: "0", sourceGeneration: "2" });
      await report(exchange(same, "c", { userText: "new words" }));
      await h.herald.services.sessions.settled();
      expect(asked).toEqual([0n]);
      expect(await session(same)).toMatchObject({ label: "Finally Named Session", labelGeneration: "3", sourceGeneration: "3" });
      labeler.auto = null;
    });

    it("never delays the notification for the labeler, and a late result never overwrites a newer refresh", async () => {
      const id = fresh();
      const before = unavailable().length;
      const first = await report(exchange(id, 1)); // its naming request is held open
      expect(first.notification.title).toBe("herald · claude-code finished");
      await report(exchange(id, 2)); // first refresh still pending: asks again
      expect(labeler.requests).toHaveLength(2);
      const [older, newer] = labeler.requests.splice(0);
      newer!.answer({ kind: "label", text: "Newer Label Wins" });
      await eventuallySession(id, "labelGeneration", "2");
      older!.answer({ kind: "label", text: "Older Label Loses" });
      await h.herald.services.sessions.settled();
      expect(await session(id)).toMatchObject({ label: "Newer Label Wins", labelGeneration: "2", sourceGeneration: "2" });
      expect(unavailable().length).toBe(before);
    });

    it("a failing labeler keeps the prior label and records `labels unavailable`", async () => {
      labeler.auto = () => ({ kind: "label", text: "Good First Label" });
      const id = fresh();
      await report(exchange(id, 1));
      await h.herald.services.sessions.settled();
      for (let n = 2; n <= 4; n++) await report(exchange(id, n));
      const before = unavailable().length;
      labeler.auto = () => new Error("HTTP 500");
      const fifth = await report(exchange(id, 5));
      await h.herald.services.sessions.settled();
      expect(fifth.notification.title).toBe("Good First Label · claude-code finished");
      expect(await session(id)).toMatchObject({ label: "Good First Label", labelGeneration: "1", sourceGeneration: "5" });
      const logged = unavailable().slice(before);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ harness: "claude-code", reason: "scripted labeler: HTTP 500" });
      expect(JSON.stringify(logged)).not.toContain("step 5"); // no exchange text in logs
      labeler.auto = () => ({ kind: "label", text: "one two three four five" }); // invalid: too many words
      await report(exchange(id, 6));
      await h.herald.services.sessions.settled();
      expect(await session(id)).toMatchObject({ label: "Good First Label", labelGeneration: "1" });
      expect(unavailable().slice(before)).toHaveLength(2);
      // Operations see the same category as a counter, not only in the logs.
      const counted = (await h.herald.metrics.registry.getSingleMetric("herald_labels_unavailable_total")!.get()).values[0]!.value;
      expect(counted).toBeGreaterThanOrEqual(2);
      labeler.auto = null;
    });

    it("an unreadable label state still notifies with the cwd fallback and is left as it was", async () => {
      labeler.auto = () => ({ kind: "label", text: "Never Stored Here" });
      const id = fresh();
      const created = await report(exchange(id, 1, { cwd: "/srv/payments/" }));
      await h.herald.services.sessions.settled();
      const probe = storeOf(h.herald.database);
      await probe.execute(probe.build.updateTable("Session").set({ sourceGeneration: "not-a-number" }).where("id", "=", created.session.id));
      const before = unavailable().length;
      const next = await report(exchange(id, 2, { cwd: "/srv/payments/" }));
      expect(next.notification).toMatchObject({ title: "payments · claude-code finished", revision: 3 });
      expect(unavailable().length).toBe(before + 1);
      const row = await probe.first("Session", (q) => q.where("id", "=", created.session.id));
      expect(row).not.toBeNull();
      expect(row).toMatchObject({ sourceGeneration: "not-a-number", completionId: "msg_1" });
      labeler.auto = null;
    });

    it("keeps generations exact up to 2^64-1, then stops counting but still notifies", async () => {
      labeler.auto = () => ({ kind: "label", text: "Huge Counter Session" });
      const id = fresh();
      const created = await report(exchange(id, 1));
      await h.herald.services.sessions.settled();
      const probe = storeOf(h.herald.database);
      await probe.execute(
        probe.build
          .updateTable("Session")
          .set({ sourceGeneration: "18446744073709551613", labelGeneration: "18446744073709551610" })
          .where("id", "=", created.session.id),
      );
      const next = await report(exchange(id, 2));
      await h.herald.services.sessions.settled();
      expect(next.session.sourceGeneration).toBe("18446744073709551614");
      expect(await session(id)).toMatchObject({ sourceGeneration: "18446744073709551614", labelGeneration: "18446744073709551614" });
      await report(exchange(id, 3));
      const before = unavailable().length;
      const past = await report(exchange(id, 4));
      expect(past.notification.revision).toBe(5);
      expect(await session(id)).toMatchObject({ sourceGeneration: "18446744073709551615", completionId: "msg_3" });
      expect(unavailable().length).toBe(before + 1);
      labeler.auto = null;
    });

    it("counts concurrent exchanges exactly once each, and concurrent retries once", async () => {
      labeler.auto = (request) => ({ kind: "label", text: `Busy Session ${request.material.user.replace(/\D/g, "")}` });
      const id = fresh();
      await report(exchange(id, 0));
      await Promise.all(Array.from({ length: 8 }, (_, i) => report(exchange(id, i + 1))));
      const retries = await Promise.all(Array.from({ length: 5 }, () => report(exchange(id, 99))));
      expect(retries.filter((r) => !r.duplicate)).toHaveLength(1);
      await h.herald.services.sessions.settled();
      const state = await session(id);
      expect(state.sourceGeneration).toBe("10");
      expect(await storeOf(h.herald.database).count("SessionExchange", (q) => q.where("sessionId", "=", state.id))).toBe(10);
      expect(BigInt(state.labelGeneration)).toBeGreaterThanOrEqual(1n);
      expect(BigInt(state.labelGeneration)).toBeLessThanOrEqual(10n);
      expect(state.label).toMatch(/^Busy Session \d+$/);
      labeler.auto = null;
    });

    it("an exchange without a completion id notifies without counting", async () => {
      labeler.auto = () => ({ kind: "label", text: "Not Asked Label" });
      const id = fresh();
      const r = await report(exchange(id, 1, { completionId: null }));
      await h.herald.services.sessions.settled();
      expect(r.notification.revision).toBe(1);
      expect(await session(id)).toMatchObject({ sourceGeneration: "0", labelGeneration: "0", label: "", completionId: "" });
      labeler.auto = null;
    });

    const invalid: [string, (id: string) => Record<string, unknown>, string][] = [
      ["an unsupported harness", (id) => exchange(id, 1, { harness: "cursor" }), "harness"],
      ["a session id starting with a dot", () => exchange(".hidden", 1), "sessionId"],
      ["a session id with a slash", () => exchange("a/b", 1), "sessionId"],
      ["a session id over 128 characters", () => exchange("s".repeat(129), 1), "sessionId"],
      ["an empty completion id", (id) => exchange(id, 1, { completionId: "" }), "completionId"],
      ["a completion id with a space", (id) => exchange(id, 1, { completionId: "a b" }), "completionId"],
      ["an empty cwd", (id) => exchange(id, 1, { cwd: "" }), "cwd"],
      ["user text over the limit", (id) => exchange(id, 1, { userText: "x".repeat(100_001) }), "userText"],
      ["an unknown person", (id) => exchange(id, 1, { personId: "nobody" }), "personId"],
      ["an unknown session without a person", (id) => exchange(id, 1, { personId: null }), "sessionId"],
    ];

    it.each(invalid)("refuses %s with a ValidationError on the field, writing nothing", async (_name, input, field) => {
      const probe = storeOf(h.herald.database);
      const counts = async () => [await probe.count("Session"), await probe.count("SessionExchange"), await probe.count("Notification")];
      const before = await counts();
      const r = await report(input(fresh()));
      expect(r).toMatchObject({ __typename: "ValidationError", field });
      expect(await counts()).toEqual(before);
    });

    it("refuses another owner's session and a person token", async () => {
      const id = fresh();
      await report(exchange(id, 1));
      expect(await report(exchange(id, 2, { personId: bob.id }))).toMatchObject({ __typename: "ValidationError", field: "sessionId" });
      const asPerson = await gql(h.url, ada.token, REPORT, { input: exchange(id, 3) });
      expect(errorCode(asPerson)).toBe("FORBIDDEN");
    });

    async function eventuallySession(id: string, field: string, value: string) {
      await eventually(async () => (await session(id))[field] === value, 10_000, `session ${id} to have ${field} = ${value}`);
    }
  });
}
