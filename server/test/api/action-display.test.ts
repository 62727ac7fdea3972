// A producer's acknowledgement with a direct display and refresh effects, over real HTTP and SSE
// on every storage provider: stored on the invocation and returned, read by the person whose
// invocation it is (never by another), MODAL unless the producer chose, and refused naming the
// field when bad, with nothing stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { untilMarker } from "../support/marker.ts";
import { providers, redisUrl } from "../support/providers.ts";
import { eventually, subscribe } from "../support/sse.ts";
import { storeOf } from "../support/store.ts";

const DISPLAY = "display { format title body bodyHtml variant presentation dismissible }";
const ACK = `mutation($id: ID!, $outcome: ActionInvocationOutcome!, $message: String, $display: DisplayInput, $uiEffects: JSON) {
  acknowledgeActionInvocation(id: $id, outcome: $outcome, message: $message, display: $display, uiEffects: $uiEffects) {
    __typename
    ... on ActionInvocation { id state outcomeMessage ${DISPLAY} uiEffects }
    ... on NotFoundError { message }
    ... on ValidationError { field message }
  }
}`;
const INVOKE = `mutation($id: ID!) { invokeNotificationAction(id: $id, actionId: "run") { id state } }`;
const LAST = `query($id: ID!) { notification(id: $id) { lastInvocation { id state ${DISPLAY} uiEffects } } }`;

for (const provider of providers) {
  const transport = provider.name === "postgresql" && redisUrl ? " + Redis" : "";
  describe.skipIf(!provider.available)(`direct action displays on ${provider.name}${transport}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      const redis = provider.name === "postgresql" && redisUrl ? { redisUrl } : {};
      h = await startHerald(provider, { heartbeatMs: 200, feedPollMs: 200, ...redis });
    });
    afterAll(async () => h?.close());

    const runnable = (target: { scope: "PERSON"; personId: string } | { scope: "APPLICATION" }, plugin: string, extra: Record<string, unknown> = {}) =>
      h.publish({
        ...target,
        key: `export-${plugin}`,
        title: "Export ready to run",
        source: { plugin },
        actions: [{ kind: "RUN_ACTION", id: "run", label: "Run", actionId: "export.run" }],
        ...extra,
      });
    const invoke = async (token: string, id: string): Promise<string> => {
      const r = await gql(h.url, token, INVOKE, { id });
      if (r.errors) throw new Error(JSON.stringify(r.errors));
      return r.data.invokeNotificationAction.id as string;
    };
    const ack = async (variables: Record<string, unknown>) =>
      (await gql(h.url, h.producerKey, ACK, { outcome: "ACKNOWLEDGED", ...variables })).data.acknowledgeActionInvocation;

    it("stores the display and effects, returns them to the producer and shows them to the person live and on reading", async () => {
      const ada = await h.newPerson("Ada");
      const n = await runnable({ scope: "PERSON", personId: ada.id }, "display-store");
      const person = subscribe(h.url, ada.token, {
        query: `subscription { notificationEvents { type notification { id lastInvocation { id state ${DISPLAY} uiEffects } } } }`,
        variables: {},
      });
      await h.attached(ada.id);
      const id = await invoke(ada.token, n.id);
      const display = { format: "MARKDOWN", title: "Export complete", body: "The **file** was created.", variant: "SUCCESS" };
      const effects = { reload_sessions_list: true, producer_own: { kept: 1 } };

      const answered = await ack({ id, message: "done", display, uiEffects: effects });
      // The server renders the Markdown: every reader gets the same safe HTML, and no client parses it.
      const shown = { ...display, bodyHtml: "<p>The <strong>file</strong> was created.</p>\n", presentation: "MODAL", dismissible: true };
      expect(answered).toEqual({ __typename: "ActionInvocation", id, state: "ACKNOWLEDGED", outcomeMessage: "done", display: shown, uiEffects: effects });

      type Ev = { type: string; notification: { lastInvocation: { id: string; state: string; display: unknown; uiEffects: unknown } | null } };
      const settled = () =>
        (person.events as unknown as Ev[]).filter((e) => e.type === "INVOCATION" && e.notification.lastInvocation?.state === "ACKNOWLEDGED");
      await eventually(async () => settled().length === 1, 10_000, "the acknowledgement event");
      expect(settled()[0]!.notification.lastInvocation).toEqual({ id, state: "ACKNOWLEDGED", display: shown, uiEffects: effects });
      person.dispose();

      const read = await gql(h.url, ada.token, LAST, { id: n.id });
      expect(read.data.notification.lastInvocation).toEqual({ id, state: "ACKNOWLEDGED", display: shown, uiEffects: effects });
      const polled = await gql(
        h.url,
        h.producerKey,
        `query($after: String) { actionInvocations(plugin: "display-store", after: $after) { items { id ${DISPLAY} uiEffects } } }`,
        {
          after: null,
        },
      );
      expect(polled.data.actionInvocations.items).toEqual([]); // settled: no longer PENDING
      const row = await storeOf(h.herald.database).first("ActionInvocation", (q) => q.where("id", "=", id));
      // Stored as the producer wrote it; the HTML is derived when read.
      expect(JSON.parse(row!.display!)).toEqual({ ...display, presentation: "MODAL", dismissible: true });
      expect(JSON.parse(row!.uiEffects!)).toEqual(effects);
    });

    it("defaults: MODAL, TEXT, closable, the originating variant (ERROR for a failure); no display means null", async () => {
      const ada = await h.newPerson("Ada");
      const banner = await runnable({ scope: "PERSON", personId: ada.id }, "display-defaults", { display: { presentation: "BANNER", variant: "WARNING" } });
      const first = await invoke(ada.token, banner.id);
      expect((await ack({ id: first, display: { body: "Queued" } })).display).toEqual({
        format: "TEXT",
        title: "",
        body: "Queued",
        bodyHtml: null,
        variant: "WARNING",
        presentation: "MODAL",
        dismissible: true,
      });
      const second = await invoke(ada.token, banner.id);
      expect((await ack({ id: second, outcome: "FAILED", display: { title: "Export failed", presentation: "BANNER" } })).display).toMatchObject({
        title: "Export failed",
        variant: "ERROR",
        presentation: "BANNER",
      });
      const third = await invoke(ada.token, banner.id);
      expect(await ack({ id: third, message: "ok" })).toMatchObject({ state: "ACKNOWLEDGED", display: null, uiEffects: null });
    });

    it("refuses a bad display or bad effects naming the field, and leaves the invocation PENDING with nothing stored", async () => {
      const ada = await h.newPerson("Ada");
      const n = await runnable({ scope: "PERSON", personId: ada.id }, "display-bad");
      const id = await invoke(ada.token, n.id);
      const refusals: [Record<string, unknown>, string][] = [
        [{ display: { title: "Done", body: "x".repeat(10_001) } }, "display.body"],
        [{ display: { title: "   ", body: "" } }, "display.title"],
        [{ display: { format: "MARKDOWN" } }, "display.body"],
        [{ display: { title: "Done", dismissible: false } }, "display.dismissible"],
        [{ uiEffects: { reload_session_ids: "all" } }, "uiEffects.reload_session_ids"],
        [{ uiEffects: { reload_sessions_list: "yes" } }, "uiEffects.reload_sessions_list"],
        [{ uiEffects: ["reload"] }, "uiEffects"],
        [{ uiEffects: { blob: "x".repeat(17 * 1024) } }, "uiEffects"],
      ];
      for (const [input, field] of refusals) {
        const r = await ack({ id, message: "done", ...input });
        expect(r, JSON.stringify(input)).toMatchObject({ __typename: "ValidationError", field });
        expect(r.message).toMatch(new RegExp(`^${field.replace(".", "\\.")}: `));
      }
      const row = await storeOf(h.herald.database).first("ActionInvocation", (q) => q.where("id", "=", id));
      expect(row).toMatchObject({ state: "PENDING", message: null, display: null, uiEffects: null, acknowledgedAt: null });
      // An unknown enum value never reaches the service: GraphQL refuses the document.
      const badEnum = await gql(h.url, h.producerKey, ACK, { id, outcome: "ACKNOWLEDGED", display: { title: "x", presentation: "POPUP" } });
      expect(badEnum.errors?.length).toBeGreaterThan(0);
      expect((await storeOf(h.herald.database).first("ActionInvocation", (q) => q.where("id", "=", id)))?.state).toBe("PENDING");
    });

    it("another person reading the same shared notification sees neither the invocation nor its display", async () => {
      const ada = await h.newPerson("Ada");
      const bob = await h.newPerson("Bob");
      const shared = await runnable({ scope: "APPLICATION" }, "display-private");
      type Ev = { type: string; notification: { id: string; lastInvocation: { id: string; display: unknown } | null } };
      const bobStream = subscribe(h.url, bob.token, {
        query: `subscription { notificationEvents { type notification { id lastInvocation { id ${DISPLAY} } } } }`,
        variables: {},
      });
      await h.attached(bob.id);
      const id = await invoke(ada.token, shared.id);
      expect(await ack({ id, display: { title: "Ada's export", body: "Only for Ada" }, uiEffects: { reload_sessions_list: true } })).toMatchObject({
        state: "ACKNOWLEDGED",
      });

      // Bob's stream carries nothing of Ada's invocation up to a marker published after it.
      const [before] = await untilMarker(
        [() => bobStream.events as unknown as Ev[]],
        () => runnable({ scope: "APPLICATION" }, "display-private-marker"),
        (e, marker) => e.notification.id === marker.id,
      );
      expect(before!.filter((e) => e.notification.lastInvocation !== null)).toEqual([]);
      bobStream.dispose();

      const bobReads = await gql(h.url, bob.token, LAST, { id: shared.id });
      expect(bobReads.data.notification.lastInvocation).toBeNull();
      const adaReads = await gql(h.url, ada.token, LAST, { id: shared.id });
      expect(adaReads.data.notification.lastInvocation).toMatchObject({ id, display: { title: "Ada's export", body: "Only for Ada" } });
      // A person cannot acknowledge (and so cannot write a display into anyone's invocation).
      const byPerson = await gql(h.url, bob.token, ACK, { id, outcome: "ACKNOWLEDGED", display: { title: "spoof" } });
      expect(byPerson.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    });
  });
}
