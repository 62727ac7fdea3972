// emitEvent's idempotency keys belong to the producer key that sends them, over real HTTP on
// every storage provider: another producer reusing a key gets its own event (and never the first
// producer's result), and the same producer reusing a key with a different body is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

const EMIT = `mutation($input: EmitEventInput!) { emitEvent(input: $input) {
  __typename
  ... on EmitEventSuccess { eventId duplicate notifications { id title personId } }
  ... on ValidationError { field message }
} }`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`emitEvent idempotency on ${provider.name}`, () => {
    let h: TestHerald;
    let other: string;
    let engagementId: string;
    let operator: { id: string; token: string };

    beforeAll(async () => {
      h = await startHerald(provider);
      other = (await h.herald.services.auth.issueProducerKey("another service")).secret;
      operator = await h.newPerson("Olu");
      const created = await gql(h.url, h.producerKey, `mutation($id: ID!) { createEngagement(input: { name: "Atlas", operatorPersonId: $id }) { id } }`, {
        id: operator.id,
      });
      engagementId = created.data.createEngagement.id;
    });
    afterAll(async () => h?.close());

    const emit = (key: string, input: Record<string, unknown>) => gql(h.url, key, EMIT, { input });
    const rendered = (id: string) => ({ type: "render.produced", engagementId, payload: { id, name: `Render ${id}` }, idempotencyKey: "shared-key" });

    it("keeps one producer's key from answering for another: each gets its own event and result", async () => {
      const first = (await emit(h.producerKey, rendered("r-1"))).data.emitEvent;
      expect(first).toMatchObject({ __typename: "EmitEventSuccess", duplicate: false });
      expect(first.notifications).toHaveLength(1);
      const second = (await emit(other, rendered("r-2"))).data.emitEvent;
      expect(second).toMatchObject({ __typename: "EmitEventSuccess", duplicate: false });
      expect(second.eventId).not.toBe(first.eventId);
      expect(JSON.stringify(second)).not.toContain(first.notifications[0].id);
      expect(second.notifications).toHaveLength(1);
      expect(second.notifications[0].title).not.toBe(first.notifications[0].title);
    });

    it("returns the first result for the same key and body, and refuses the same key with another body", async () => {
      const repeat = (await emit(h.producerKey, rendered("r-1"))).data.emitEvent;
      expect(repeat).toMatchObject({ __typename: "EmitEventSuccess", duplicate: true });
      // Key order in the payload does not make a different body.
      const reordered = (await emit(h.producerKey, { ...rendered("r-1"), payload: { name: "Render r-1", id: "r-1" } })).data.emitEvent;
      expect(reordered).toMatchObject({ __typename: "EmitEventSuccess", duplicate: true, eventId: repeat.eventId });
      const changed = (await emit(h.producerKey, rendered("r-3"))).data.emitEvent;
      expect(changed).toEqual({ __typename: "ValidationError", field: "idempotencyKey", message: expect.stringContaining("idempotencyKey") });
      const inbox = await gql(h.url, operator.token, `{ notifications(first: 20) { edges { node { title } } } }`);
      expect(inbox.data.notifications.edges.map((e: any) => e.node.title).join(" ")).not.toContain("r-3");
    });
  });
}
