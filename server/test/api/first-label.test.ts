// The first exchange's notification shows the generated label, on every provider: it goes out at
// once titled with the working directory, then is revised in place (same id and key) when the
// labeler answers; a labeler failure leaves the fallback title.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LabelAnswer } from "@herald/server/domain/session-labels";
import type { Labeler, LabelRequest } from "@herald/server/app";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

const REPORT = `mutation($input: ReportExchangeInput!) { reportExchange(input: $input) {
  __typename ... on ReportedExchange { notification { id key revision title } } ... on ValidationError { field message } } }`;

/** Answers with a label, or fails, as the test says. */
class AnsweringLabeler implements Labeler {
  readonly name = "answering";
  answer: LabelAnswer | Error = { kind: "label", text: "Harbour Model Cleanup" };
  async label(_request: LabelRequest): Promise<LabelAnswer> {
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
}

for (const provider of providers) {
  describe.skipIf(!provider.available)(`the first exchange's label on ${provider.name}`, () => {
    let h: TestHerald;
    const labeler = new AnsweringLabeler();
    beforeAll(async () => {
      h = await startHerald(provider, {}, { labeler });
    });
    afterAll(async () => h?.close());

    const report = async (personId: string, sessionId: string) => {
      const r = await gql(h.url, h.producerKey, REPORT, {
        input: { harness: "pi", sessionId, completionId: "c-1", cwd: "/home/ada/src/harbour", userText: "tidy the model", assistantText: "Tidied.", personId },
      });
      return r.data.reportExchange.notification as { id: string; key: string; revision: number; title: string };
    };
    const current = async (token: string, id: string) =>
      (await gql(h.url, token, `query($id: ID!) { notification(id: $id) { id key revision title } }`, { id })).data.notification;

    it("publishes at once with the cwd, then retitles the same notification with the generated label", async () => {
      labeler.answer = { kind: "label", text: "Harbour Model Cleanup" };
      const ada = await h.newPerson("Ada");
      const first = await report(ada.id, "s-label");
      expect(first).toMatchObject({ revision: 1, title: "harbour · pi finished" });
      await h.herald.services.sessions.settled();
      expect(await current(ada.token, first.id)).toEqual({ id: first.id, key: first.key, revision: 2, title: "Harbour Model Cleanup · pi finished" });
    });

    it("keeps the fallback title when the labeler fails", async () => {
      labeler.answer = new Error("model unavailable");
      const bob = await h.newPerson("Bob");
      const first = await report(bob.id, "s-fail");
      await h.herald.services.sessions.settled();
      expect(await current(bob.token, first.id)).toEqual({ id: first.id, key: first.key, revision: 1, title: "harbour · pi finished" });
    });
  });
}
