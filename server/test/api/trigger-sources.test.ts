// De-duplication per trigger source, on every provider: a trigger ref is unique only within its
// source (an engine's ids per event type, a scan's own refs), so a render and an assertion with
// the same engine id notify twice, and no emitted event can pre-empt a scanner's reminder;
// `trigger.ref` still shows the plain ref.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

const DAY = 86_400_000;
const EMIT = `mutation($input: EmitEventInput!) { emitEvent(input: $input) {
  __typename ... on EmitEventSuccess { notifications { id personId key trigger { type ref } } } ... on ValidationError { field message } } }`;
const LIST = `query { notifications(first: 50, filter: { includeTerminal: true }) { edges { node { id trigger { type ref } } } } }`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`trigger sources on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider);
    });
    afterAll(async () => h?.close());

    const producer = (query: string, variables: Record<string, unknown> = {}) => gql(h.url, h.producerKey, query, variables);
    const emit = async (input: Record<string, unknown>) => (await producer(EMIT, { input })).data!.emitEvent;
    const triggers = async (token: string) =>
      ((await gql(h.url, token, LIST)).data.notifications.edges as { node: { trigger: { type: string; ref: string } } }[]).map((e) => e.node.trigger);
    const engagement = async (name: string, operatorId: string, members: string[]) => {
      const created = await producer(`mutation($n: String!, $o: ID!) { createEngagement(input: { name: $n, operatorPersonId: $o }) { id } }`, {
        n: name,
        o: operatorId,
      });
      const id = created.data!.createEngagement.id as string;
      for (const personId of members)
        await producer(`mutation($e: ID!, $p: ID!) { addEngagementMember(input: { engagementId: $e, personId: $p }) { role } }`, { e: id, p: personId });
      return id;
    };

    it("notifies for a render and an assertion with the same engine id, each once, showing the engine's id", async () => {
      const ada = await h.newPerson("Ada");
      const bob = await h.newPerson("Bob");
      const eng = await engagement("Harbour", ada.id, [bob.id]);
      const render = await emit({ type: "render.produced", engagementId: eng, payload: { id: "engine-42", name: "the facade" } });
      const assertion = await emit({ type: "assertion.committed", engagementId: eng, actorPersonId: bob.id, payload: { id: "engine-42", summary: "Blue" } });
      expect(render.notifications).toHaveLength(1);
      expect(assertion.notifications).toHaveLength(1);
      expect(assertion.notifications[0].id).not.toBe(render.notifications[0].id);
      expect(await triggers(ada.token)).toEqual([
        { type: "EVENT_BASED", ref: "engine-42" },
        { type: "EVENT_BASED", ref: "engine-42" },
      ]);
      // Each still fires once.
      expect((await emit({ type: "render.produced", engagementId: eng, payload: { id: "engine-42" } })).notifications).toEqual([]);
      expect((await emit({ type: "assertion.committed", engagementId: eng, actorPersonId: bob.id, payload: { id: "engine-42" } })).notifications).toEqual([]);
    });

    it("does not let an emitted event with a scanner's ref pre-empt the reminder", async () => {
      const cy = await h.newPerson("Cy");
      const eng = await engagement("Lighthouse", cy.id, []);
      const date = new Date(h.clock.now().getTime() + 2 * DAY).toISOString().slice(0, 10);
      const fact = await producer(`mutation($p: ID!, $c: String!) { rememberFact(input: { personId: $p, content: $c }) { id } }`, {
        p: cy.id,
        c: `Dentist on ${date}`,
      });
      const ref = `fact:${fact.data!.rememberFact.id}:${date}`;
      const forged = await emit({ type: "render.produced", engagementId: eng, payload: { id: ref } });
      expect(forged.notifications).toHaveLength(1);
      h.clock.advance(h.herald.tuning.scanIntervalMs);
      expect(await h.herald.scanner.tick()).not.toBeNull();
      const refs = await triggers(cy.token);
      expect(refs).toContainEqual({ type: "TIME_BASED", ref });
      expect(refs).toContainEqual({ type: "EVENT_BASED", ref });
    });
  });
}
