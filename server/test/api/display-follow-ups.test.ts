// A direct display carries follow-ups and a form as a notification does, so a producer's answer can
// ask the next question: acknowledgeActionInvocation(actions) stores them with the display, the
// person reads them on the invocation and runs one with invokeNotificationAction(invocationId),
// and the producer receives that as an ordinary invocation. Bad follow-ups are refused naming the
// field; another person cannot run a display follow-up of someone else's invocation. Both providers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

const ACTIONS = "actions { kind id label actionId fixedParams form }";
const ACK = `mutation($id: ID!, $display: DisplayInput, $actions: [ActionInput!]) {
  acknowledgeActionInvocation(id: $id, outcome: ACKNOWLEDGED, display: $display, actions: $actions) {
    __typename
    ... on ActionInvocation { id state display { title dismissible } ${ACTIONS} }
    ... on ValidationError { field message }
    ... on NotFoundError { message }
  }
}`;
const INVOKE = `mutation($id: ID!, $actionId: String!, $values: JSON, $invocationId: ID) {
  invokeNotificationAction(id: $id, actionId: $actionId, values: $values, invocationId: $invocationId) { id state targetActionId fixedParams values actions { id } }
}`;
const LAST = `query($id: ID!) { notification(id: $id) { lastInvocation { id state display { title } ${ACTIONS} } } }`;

const question = {
  kind: "RUN_ACTION",
  id: "format",
  label: "Choose",
  actionId: "export.format",
  fixedParams: { format: "$form.format" },
  form: [{ name: "format", label: "Format", type: "SELECT", options: ["csv", "json"], required: true }],
};

for (const provider of providers) {
  describe.skipIf(!provider.available)(`follow-ups on a direct display on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider);
    });
    afterAll(async () => h?.close());

    const runnable = (target: Record<string, unknown>, key: string) =>
      h.publish({
        ...target,
        key,
        title: "Export",
        source: { plugin: "exporter" },
        actions: [{ kind: "RUN_ACTION", id: "run", label: "Run", actionId: "export.run" }],
      });
    const invoke = (token: string, variables: Record<string, unknown>) => gql(h.url, token, INVOKE, variables);
    const ack = async (variables: Record<string, unknown>) => {
      const r = await gql(h.url, h.producerKey, ACK, variables);
      if (r.errors) throw new Error(JSON.stringify(r.errors));
      return r.data.acknowledgeActionInvocation;
    };

    it("asks the next question through the display and hands the answer to the producer", async () => {
      const ada = await h.newPerson("Ada");
      const n = await runnable({ scope: "PERSON", personId: ada.id }, "ask-next");
      const first = (await invoke(ada.token, { id: n.id, actionId: "run" })).data.invokeNotificationAction;
      expect(first.actions).toEqual([]);

      const answered = await ack({ id: first.id, display: { title: "Which format?", dismissible: false }, actions: [question] });
      const offered = [{ ...question, form: [expect.objectContaining(question.form[0])] }];
      expect(answered).toEqual({
        __typename: "ActionInvocation",
        id: first.id,
        state: "ACKNOWLEDGED",
        display: { title: "Which format?", dismissible: false },
        actions: offered,
      });
      const read = await gql(h.url, ada.token, LAST, { id: n.id });
      expect(read.data.notification.lastInvocation).toEqual({ id: first.id, state: "ACKNOWLEDGED", display: { title: "Which format?" }, actions: offered });

      // The form is checked as a notification's is.
      const missing = await invoke(ada.token, { id: n.id, actionId: "format", invocationId: first.id, values: {} });
      expect(missing.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR" });
      // Without invocationId the display's follow-up is not the notification's.
      const notOwn = await invoke(ada.token, { id: n.id, actionId: "format", values: { format: "csv" } });
      expect(notOwn.errors?.[0]?.message).toMatch(/actionId: not a RUN_ACTION follow-up of this notification/);

      const second = await invoke(ada.token, { id: n.id, actionId: "format", invocationId: first.id, values: { format: "csv" } });
      expect(second.errors).toBeUndefined();
      expect(second.data.invokeNotificationAction).toMatchObject({
        state: "PENDING",
        targetActionId: "export.format",
        fixedParams: { format: "csv" },
        values: { format: "csv" },
      });
      const polled = await gql(h.url, h.producerKey, `{ actionInvocations(plugin: "exporter") { items { id actionId targetActionId fixedParams } } }`);
      expect(polled.data.actionInvocations.items).toEqual([
        { id: second.data.invokeNotificationAction.id, actionId: "format", targetActionId: "export.format", fixedParams: { format: "csv" } },
      ]);
      const done = await ack({ id: second.data.invokeNotificationAction.id, display: { title: "Exported as CSV" } });
      expect(done).toMatchObject({ state: "ACKNOWLEDGED", actions: [] });
    });

    it("keeps another person out of someone's display follow-ups, even on a shared notification", async () => {
      const [ada, bob] = [await h.newPerson("Ada"), await h.newPerson("Bob")];
      const n = await runnable({ scope: "APPLICATION" }, "shared-ask");
      const adas = (await invoke(ada.token, { id: n.id, actionId: "run" })).data.invokeNotificationAction;
      await ack({ id: adas.id, display: { title: "Which format?" }, actions: [question] });
      const bobs = await invoke(bob.token, { id: n.id, actionId: "format", invocationId: adas.id, values: { format: "csv" } });
      expect(bobs.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });
      // Nor does an invocation of another notification lend its follow-ups.
      const other = await runnable({ scope: "PERSON", personId: ada.id }, "other-ask");
      const borrowed = await invoke(ada.token, { id: other.id, actionId: "format", invocationId: adas.id, values: { format: "csv" } });
      expect(borrowed.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });
    });

    it("refuses bad follow-ups naming the field and leaves the invocation PENDING", async () => {
      const ada = await h.newPerson("Ada");
      const n = await runnable({ scope: "PERSON", personId: ada.id }, "bad-follow-ups");
      const { id } = (await invoke(ada.token, { id: n.id, actionId: "run" })).data.invokeNotificationAction;
      const cases: [Record<string, unknown>, string][] = [
        [{ actions: [question] }, "actions"],
        [{ display: { title: "x" }, actions: [{ kind: "DOWNLOAD_ATTACHMENT_ASSET", id: "a", label: "Get", assetId: "asset" }] }, "actions.0.kind"],
        [{ display: { title: "x" }, actions: [{ kind: "OPEN_URL", id: "a", label: "Go", url: "https://example.org", form: question.form }] }, "actions.0.form"],
        [{ display: { title: "x" }, actions: [{ kind: "RUN_ACTION", id: "a", label: "Go" }] }, "actions.0.actionId"],
        [{ display: { title: "x" }, actions: [question, question] }, "actions"],
        [{ display: { title: "x", dismissible: false }, actions: [{ kind: "DISMISS", id: "d", label: "Close" }] }, "display.dismissible"],
      ];
      for (const [variables, field] of cases) {
        const refused = await ack({ id, ...variables });
        expect(refused, field).toMatchObject({ __typename: "ValidationError", field });
      }
      const still = await gql(h.url, ada.token, LAST, { id: n.id });
      expect(still.data.notification.lastInvocation).toMatchObject({ id, state: "PENDING", display: null, actions: [] });
    });
  });
}
