// The proactive companion over real HTTP and SSE on every provider: emitEvent and its
// listeners, de-duplication by (person, trigger), the periodic scanner's two scans, quiet mode
// set by a producer, and observations that offer to remember a fact.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";
import { subscribe } from "../support/sse.ts";

const DAY = 86_400_000;
const EMIT = `mutation($input: EmitEventInput!) { emitEvent(input: $input) {
  __typename
  ... on EmitEventSuccess { eventId type listeners duplicate notifications { id personId title body status trigger { type ref } engagement { id name } } }
  ... on ValidationError { field message }
} }`;
const LIST = `query { notifications(first: 20, filter: { includeTerminal: true }) { edges { node { id personId status title body trigger { type ref } engagement { id name } resolution { actionId } } } } }`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`the companion on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider, { heartbeatMs: 200, feedPollMs: 200 });
    });
    afterAll(async () => h?.close());

    const producer = (query: string, variables: Record<string, unknown> = {}) => gql(h.url, h.producerKey, query, variables);
    const emit = async (input: Record<string, unknown>) => (await producer(EMIT, { input })).data!.emitEvent;
    const list = async (token: string) => {
      const r = await gql(h.url, token, LIST);
      if (!r.data) throw new Error(JSON.stringify(r.errors));
      return (r.data.notifications.edges as { node: any }[]).map((e) => e.node);
    };
    const engagement = async (name: string, operatorId: string, members: string[] = []) => {
      const created = await producer(`mutation($n: String!, $o: ID!) { createEngagement(input: { name: $n, operatorPersonId: $o }) { id } }`, {
        n: name,
        o: operatorId,
      });
      const id = created.data!.createEngagement.id as string;
      for (const personId of members) {
        await producer(`mutation($e: ID!, $p: ID!) { addEngagementMember(input: { engagementId: $e, personId: $p }) { role } }`, { e: id, p: personId });
      }
      return id;
    };
    const remember = async (personId: string, content: string, engagementId?: string) =>
      (
        await producer(`mutation($p: ID!, $c: String!, $e: ID) { rememberFact(input: { personId: $p, content: $c, engagementId: $e }) { id } }`, {
          p: personId,
          c: content,
          e: engagementId,
        })
      ).data!.rememberFact.id as string;
    /** Moves to the next scanner cycle and runs it (as the server's timer would). */
    const nextCycle = async () => {
      h.clock.advance(h.herald.tuning.scanIntervalMs);
      const report = await h.herald.scanner.tick();
      expect(report).not.toBeNull();
      return report!;
    };
    const setQuiet = (personId: string, enabled: boolean) =>
      producer(`mutation($p: ID!, $e: Boolean!) { setPersonQuietMode(personId: $p, enabled: $e) { quietMode } }`, { p: personId, e: enabled });
    const isoIn = (days: number) => new Date(h.clock.now().getTime() + days * DAY).toISOString().slice(0, 10);
    const monthDay = (days: number) =>
      new Date(h.clock.now().getTime() + days * DAY).toLocaleDateString("en-US", { month: "long", day: "numeric", timeZone: "UTC" });

    describe("emitEvent and its listeners", () => {
      it("render.produced and shape.confirmed notify the engagement's operator, in their words, engagement linked", async () => {
        const ada = await h.newPerson("Ada");
        const bob = await h.newPerson("Bob");
        const eng = await engagement("Harbour study", ada.id, [bob.id]);
        const render = await emit({ type: "render.produced", engagementId: eng, payload: { id: "render-1", name: "the east facade" } });
        expect(render.__typename).toBe("EmitEventSuccess");
        expect(render.listeners).toEqual(["render-ready"]);
        expect(render.notifications).toHaveLength(1);
        const n = render.notifications[0];
        expect(n).toMatchObject({
          personId: ada.id,
          title: "Your render of the east facade is ready",
          status: "PENDING",
          trigger: { type: "EVENT_BASED", ref: "render-1" },
          engagement: { id: eng, name: "Harbour study" },
        });
        const shape = await emit({ type: "shape.confirmed", engagementId: eng, payload: { id: "shape-7", name: "the ground floor" } });
        expect(shape.notifications.map((x: any) => [x.personId, x.trigger.ref])).toEqual([[ada.id, "shape-7"]]);
        // No engine vocabulary reaches a person.
        for (const x of [n, shape.notifications[0]]) expect(`${x.title} ${x.body}`).not.toMatch(/render\.produced|shape\.confirmed|payload|assertion/);
        expect((await list(bob.token)).filter((x) => x.trigger.type === "EVENT_BASED")).toEqual([]);
        // What Herald raises itself is counted with the publishes, under its own plugin name.
        const publishes = await h.herald.metrics.registry.getSingleMetric("herald_publishes_total")!.get();
        expect(publishes.values.find((v) => v.labels.plugin === "herald")?.value).toBeGreaterThanOrEqual(2);
      });

      it("assertion.committed notifies every member except the actor", async () => {
        const ada = await h.newPerson("Ada");
        const bob = await h.newPerson("Bob");
        const cy = await h.newPerson("Cy");
        const outsider = await h.newPerson("Dee");
        const eng = await engagement("Garden", ada.id, [bob.id, cy.id]);
        const r = await emit({ type: "assertion.committed", engagementId: eng, actorPersonId: cy.id, payload: { id: "a-1", summary: "The pond stays" } });
        expect(r.listeners).toEqual(["contribution-added"]);
        expect(r.notifications.map((x: any) => x.personId).sort()).toEqual([ada.id, bob.id].sort());
        expect(r.notifications[0].title).toBe("Cy added something to Garden");
        expect(r.notifications[0].body).toBe("Cy added: “The pond stays”");
        expect(await list(cy.token)).toEqual([]);
        expect(await list(outsider.token)).toEqual([]);
      });

      it("records unknown types and notifies no one", async () => {
        const before = await storeOf(h.herald.database).count("CompanionEvent");
        const r = await emit({ type: "weather.changed", payload: { id: "w1", sky: "grey" } });
        expect(r).toMatchObject({ __typename: "EmitEventSuccess", type: "weather.changed", listeners: [], notifications: [], duplicate: false });
        expect(await storeOf(h.herald.database).count("CompanionEvent")).toBe(before + 1);
      });

      it("the same idempotencyKey twice changes nothing the second time", async () => {
        const ada = await h.newPerson("Ada");
        const eng = await engagement("Idem", ada.id);
        const input = { type: "render.produced", engagementId: eng, payload: { id: "r-idem", name: "plan" }, idempotencyKey: `k-${eng}` };
        const first = await emit(input);
        const events = await storeOf(h.herald.database).count("CompanionEvent");
        const second = await emit(input);
        expect(second).toMatchObject({ eventId: first.eventId, duplicate: true, listeners: ["render-ready"] });
        expect(second.notifications.map((x: any) => x.id)).toEqual(first.notifications.map((x: any) => x.id));
        expect(await storeOf(h.herald.database).count("CompanionEvent")).toBe(events);
        expect(await list(ada.token)).toHaveLength(1);
      });

      it("a trigger fires once per person, even after its notification was dismissed or resolved", async () => {
        const ada = await h.newPerson("Ada");
        const eng = await engagement("Dedup", ada.id);
        const first = await emit({ type: "render.produced", engagementId: eng, payload: { id: "r-dup" } });
        const id = first.notifications[0].id;
        await gql(h.url, ada.token, `mutation($id: ID!) { dismissNotification(id: $id) { __typename } }`, { id });
        const again = await emit({ type: "render.produced", engagementId: eng, payload: { id: "r-dup" } });
        expect(again).toMatchObject({ duplicate: false, notifications: [] });
        const other = await emit({ type: "render.produced", engagementId: eng, payload: { id: "r-dup-2" } });
        await producer(`mutation($id: ID!) { resolveNotification(id: $id) { __typename } }`, { id: other.notifications[0].id });
        expect((await emit({ type: "render.produced", engagementId: eng, payload: { id: "r-dup-2" } })).notifications).toEqual([]);
        expect((await list(ada.token)).map((x) => x.status).sort()).toEqual(["DISMISSED", "RESOLVED"]);
      });

      it("parallel emits of one engine event create one notification per person", async () => {
        const ada = await h.newPerson("Ada");
        const bob = await h.newPerson("Bob");
        const eng = await engagement("Race", ada.id, [bob.id]);
        const results = await Promise.all(
          Array.from({ length: 12 }, () => emit({ type: "assertion.committed", engagementId: eng, payload: { id: "race-1" } })),
        );
        expect(results.every((r) => r.__typename === "EmitEventSuccess")).toBe(true);
        expect(results.flatMap((r) => r.notifications).length).toBe(2);
        expect(await list(ada.token)).toHaveLength(1);
        expect(await list(bob.token)).toHaveLength(1);
      });

      it("refuses bad input with a ValidationError naming the field, recording nothing", async () => {
        const ada = await h.newPerson("Ada");
        const eng = await engagement("Bad", ada.id);
        const before = await storeOf(h.herald.database).count("CompanionEvent");
        const cases: [Record<string, unknown>, string][] = [
          [{ type: "render.produced", engagementId: eng, payload: { name: "no id" } }, "payload.id"],
          [{ type: "render.produced", payload: { id: "x" } }, "engagementId"],
          [{ type: "render.produced", engagementId: "missing", payload: { id: "x" } }, "engagementId"],
          [{ type: "x", actorPersonId: "missing" }, "actorPersonId"],
          [{ type: "x", payload: [1, 2] }, "payload"],
          [{ type: "x", payload: { big: "y".repeat(20_000) } }, "payload"],
          [{ type: "" }, "type"],
          [{ type: "no spaces allowed" }, "type"],
        ];
        for (const [input, field] of cases) {
          const r = await emit(input);
          expect([r.__typename, r.field]).toEqual(["ValidationError", field]);
        }
        expect(await storeOf(h.herald.database).count("CompanionEvent")).toBe(before);
        expect(errorCode(await gql(h.url, ada.token, EMIT, { input: { type: "x" } }))).toBe("FORBIDDEN");
        expect(errorCode(await gql(h.url, null, EMIT, { input: { type: "x" } }))).toBe("UNAUTHENTICATED");
      });
    });

    describe("the periodic scanner", () => {
      it("reminds of dates in remembered facts within the lead time, once per occurrence", async () => {
        const ada = await h.newPerson("Ada");
        // The occurrence is the day the fact names, read on the same clock reading: a cycle that
        // crosses midnight (UTC) must not move the expected date (this failed at 23:59:50 once).
        const date = isoIn(3);
        const soon = await remember(ada.id, `My sister's birthday is ${monthDay(3)}`);
        await remember(ada.id, `Our anniversary is ${monthDay(30)}`);
        await remember(ada.id, "I like green tea");
        await nextCycle();
        const reminders = (await list(ada.token)).filter((x) => x.trigger.type === "TIME_BASED");
        expect(reminders.map((x) => x.trigger.ref)).toEqual([`fact:${soon}:${date}`]);
        expect(reminders[0].title).toMatch(/^In [23] days: My sister's birthday is /);
        await nextCycle();
        expect((await list(ada.token)).filter((x) => x.trigger.type === "TIME_BASED")).toHaveLength(1);
      });

      it("reminds of a weekly date once per occurrence, and again for next week's", async () => {
        const ada = await h.newPerson("Ada");
        const sync = await remember(ada.id, "Team sync on Mondays");
        await remember(ada.id, "I walk the dog every Tuesday"); // a habit: never reminded
        const weekly = async () => (await list(ada.token)).filter((x) => x.trigger.type === "TIME_BASED").map((x) => x.trigger.ref as string);
        const mondayOf = (ref: string) => {
          expect(ref.startsWith(`fact:${sync}:`)).toBe(true);
          const date = ref.split(":").at(-1)!;
          expect(new Date(`${date}T00:00:00Z`).getUTCDay()).toBe(1);
          return date;
        };
        await nextCycle();
        const [first] = await weekly();
        expect(await weekly()).toHaveLength(1);
        const firstMonday = mondayOf(first!);
        // The same occurrence is not reminded twice, however many cycles run.
        await nextCycle();
        expect(await weekly()).toEqual([first]);
        // A week on, the next Monday is a new occurrence: reminded once more, and once only.
        h.clock.advance(7 * DAY);
        await nextCycle();
        const refs = await weekly();
        expect(refs).toHaveLength(2);
        const secondMonday = mondayOf(refs.find((r) => r !== first)!);
        expect(Date.parse(secondMonday) - Date.parse(firstMonday)).toBe(7 * DAY);
        await nextCycle();
        expect(await weekly()).toHaveLength(2);
      });

      it("skips a person in quiet mode entirely, and catches up after", async () => {
        const ada = await h.newPerson("Ada");
        await remember(ada.id, `Dentist on ${isoIn(2)}`);
        await engagement("Forgotten", ada.id);
        await setQuiet(ada.id, true);
        h.clock.advance(20 * DAY);
        await nextCycle();
        expect(await list(ada.token)).toEqual([]);
        await setQuiet(ada.id, false);
        await nextCycle();
        // The dentist date has passed by now; the silent engagement is still due.
        expect((await list(ada.token)).map((x) => x.title)).toEqual([expect.stringMatching(/^Forgotten has been quiet for 2\d days$/)]);
      });

      it("nudges the operator of a silent engagement once per period of inactivity", async () => {
        const ada = await h.newPerson("Ada");
        const bob = await h.newPerson("Bob");
        const eng = await engagement("Lighthouse", ada.id, [bob.id]);
        h.clock.advance(10 * DAY);
        await nextCycle();
        const nudges = async () => (await list(ada.token)).filter((x) => x.trigger.ref?.startsWith(`stale:${eng}:`));
        expect(await nudges()).toHaveLength(0);
        h.clock.advance(5 * DAY);
        await nextCycle();
        const first = await nudges();
        expect(first).toHaveLength(1);
        expect(first[0]).toMatchObject({ title: "Lighthouse has been quiet for 15 days", engagement: { id: eng } });
        expect((await list(bob.token)).length).toBe(0);
        await nextCycle();
        expect(await nudges()).toHaveLength(1);
        // Activity (a remembered fact about it) starts a new period; its silence nudges again.
        await remember(bob.id, "The lamp needs a new lens", eng);
        h.clock.advance(13 * DAY);
        await nextCycle();
        expect(await nudges()).toHaveLength(1);
        h.clock.advance(2 * DAY);
        await nextCycle();
        expect(await nudges()).toHaveLength(2);
      });

      it("counts events and notifications about an engagement as activity", async () => {
        const ada = await h.newPerson("Ada");
        const eng = await engagement("Busy", ada.id);
        h.clock.advance(13 * DAY);
        await emit({ type: "weather.changed", engagementId: eng });
        h.clock.advance(13 * DAY);
        await h.publish({ scope: "PERSON", personId: ada.id, key: "k", title: "about Busy", engagementId: eng });
        h.clock.advance(13 * DAY);
        await nextCycle();
        expect((await list(ada.token)).filter((x) => x.trigger.type === "TIME_BASED")).toEqual([]);
      });
    });

    describe("quiet mode set by a producer", () => {
      it("is read and set by producers, and every open stream of the person hears it live", async () => {
        const ada = await h.newPerson("Ada");
        const read = async () => (await producer(`query($p: ID!) { personPreferences(personId: $p) { quietMode } }`, { p: ada.id })).data!.personPreferences;
        expect(await read()).toEqual({ quietMode: false });
        const tabs = [0, 1].map(() => subscribe(h.url, ada.token, { query: `subscription { preferencesEvents { quietMode } }`, variables: {} }));
        for (const tab of tabs) await tab.waitFor(1);
        expect((await setQuiet(ada.id, true)).data!.setPersonQuietMode).toEqual({ quietMode: true });
        expect(await read()).toEqual({ quietMode: true });
        await gql(h.url, ada.token, `mutation { setQuietMode(enabled: false) { quietMode } }`);
        for (const tab of tabs) {
          const got = await tab.waitFor(3);
          expect(got.map((e: any) => e.preferencesEvents.quietMode)).toEqual([false, true, false]);
          tab.dispose();
        }
        expect(
          errorCode(await gql(h.url, ada.token, `mutation($p: ID!) { setPersonQuietMode(personId: $p, enabled: true) { quietMode } }`, { p: ada.id })),
        ).toBe("FORBIDDEN");
        expect(errorCode(await setQuiet("nobody", true))).toBe("VALIDATION_ERROR");
        expect((await producer(`query { personPreferences(personId: "nobody") { quietMode } }`)).data!.personPreferences).toBeNull();
      });

      it("holds event-based notifications (PENDING, not pushed) and releases them in order when it ends", async () => {
        const ada = await h.newPerson("Ada");
        const eng = await engagement("Quiet", ada.id);
        // What Ada had before quiet keeps streaming: reading it is the marker.
        const known = await h.publish({ scope: "PERSON", personId: ada.id, key: "known", title: "known" });
        const stream = subscribe(h.url, ada.token);
        await h.attached(ada.id);
        await setQuiet(ada.id, true);
        const a = await emit({ type: "render.produced", engagementId: eng, payload: { id: "q1", name: "one" } });
        const b = await emit({ type: "render.produced", engagementId: eng, payload: { id: "q2", name: "two" } });
        expect([a.notifications.length, b.notifications.length]).toEqual([1, 1]);
        await gql(h.url, ada.token, `mutation($ids: [ID!]!) { markNotificationsRead(ids: $ids) { id } }`, { ids: [known.id] });
        const untilMarker = await stream.waitUntil((events) => events.some((e) => e.type === "READ"));
        // Anything pushed while quiet would have arrived before the marker.
        expect(untilMarker.map((e) => [e.type, e.notification.id])).toEqual([["READ", known.id]]);
        // A fresh snapshot lists them, still PENDING: nothing was delivered while quiet.
        expect((await list(ada.token)).filter((x) => x.title !== "known").map((x) => [x.title, x.status])).toEqual([
          ["Your render of two is ready", "PENDING"],
          ["Your render of one is ready", "PENDING"],
        ]);
        await setQuiet(ada.id, false);
        const got = await stream.waitUntil((events) => events.filter((e) => e.type === "CREATED").length >= 2);
        expect(got.filter((e) => e.type === "CREATED").map((e) => e.notification.title)).toEqual([
          "Your render of one is ready",
          "Your render of two is ready",
        ]);
        stream.dispose();
      });
    });

    describe("observations", () => {
      const OBSERVE = `mutation($input: PublishObservationInput!) { publishObservation(input: $input) {
        __typename ... on Notification { id status trigger { type ref } actions { kind id label actionId } } ... on ValidationError { field } } }`;
      const invoke = (token: string, id: string, actionId: string) =>
        gql(h.url, token, `mutation($id: ID!, $a: String!) { invokeNotificationAction(id: $id, actionId: $a) { id } }`, { id, a: actionId });
      const facts = (personId: string) => storeOf(h.herald.database).pick("RememberedFact", ["content", "hasDates"], (q) => q.where("personId", "=", personId));

      it("“Remember this” stores the fact and resolves the notification, with no producer connected", async () => {
        const ada = await h.newPerson("Ada");
        const r = (await producer(OBSERVE, { input: { personId: ada.id, fact: "Prefers morning meetings every Monday", source: { plugin: "companion" } } }))
          .data!.publishObservation;
        expect(r).toMatchObject({ __typename: "Notification", status: "PENDING", trigger: { type: "OBSERVATION" } });
        expect(r.actions.map((a: any) => [a.kind, a.label])).toEqual([
          ["RUN_ACTION", "Remember this"],
          ["DISMISS", "Not now"],
        ]);
        expect((await invoke(ada.token, r.id, "remember")).errors).toBeUndefined();
        // A weekly preference is no specific upcoming day, so it carries no reminder date.
        expect(await facts(ada.id)).toEqual([{ content: "Prefers morning meetings every Monday", hasDates: false }]);
        const after = (await list(ada.token)).find((x) => x.id === r.id);
        expect(after).toMatchObject({ status: "RESOLVED", resolution: { actionId: "remember" } });
        // A second click (another tab) stores nothing twice.
        await invoke(ada.token, r.id, "remember");
        expect(await facts(ada.id)).toHaveLength(1);
        // Another person cannot act on it.
        const bob = await h.newPerson("Bob");
        expect((await invoke(bob.token, r.id, "remember")).errors).toBeDefined();
        expect(await facts(bob.id)).toEqual([]);
      });

      it("“Not now” dismisses it and remembers nothing", async () => {
        const ada = await h.newPerson("Ada");
        const r = (await producer(OBSERVE, { input: { personId: ada.id, fact: "Likes tea", source: { plugin: "companion" } } })).data!.publishObservation;
        const d = await gql(
          h.url,
          ada.token,
          `mutation($id: ID!) { dismissNotification(id: $id, reason: "not-now") { __typename ... on Notification { status } } }`,
          { id: r.id },
        );
        expect(d.data!.dismissNotification.status).toBe("DISMISSED");
        expect(await facts(ada.id)).toEqual([]);
        const bad = (await producer(OBSERVE, { input: { personId: ada.id, fact: "  ", source: { plugin: "companion" } } })).data!.publishObservation;
        expect(bad).toEqual({ __typename: "ValidationError", field: "fact" });
      });
    });

    // Last in the file: these move the clock by months.
    describe("dedup keys and engagement activity", () => {
      it("keeps the dedup key the schema describes: person, trigger source and ref; null on producers' publishes", async () => {
        const ada = await h.newPerson("Ada");
        const eng = await engagement("Keys", ada.id);
        const render = await emit({ type: "render.produced", engagementId: eng, payload: { id: "same-1", name: "a" } });
        const shape = await emit({ type: "shape.confirmed", engagementId: eng, payload: { id: "same-1", name: "b" } });
        // The same engine id from two event types is two triggers.
        expect([render.notifications.length, shape.notifications.length]).toEqual([1, 1]);
        expect((await emit({ type: "render.produced", engagementId: eng, payload: { id: "same-1", name: "a" } })).notifications).toEqual([]);
        const own = await h.publish({ scope: "PERSON", personId: ada.id, key: "own", title: "Mine", trigger: { type: "EVENT_BASED", ref: "same-1" } });
        const store = storeOf(h.herald.database);
        const rows = await store.pick("Notification", ["id", "dedupKey", "triggerRef"], (q) =>
          q.where("personId", "=", ada.id).orderBy("createdAt").orderBy("id"),
        );
        expect(Object.fromEntries(rows.map((r) => [r.id, r.dedupKey]))).toEqual({
          [render.notifications[0].id]: `${ada.id}|event:render.produced|same-1`,
          [shape.notifications[0].id]: `${ada.id}|event:shape.confirmed|same-1`,
          [own.id]: null,
        });
        expect(rows.every((r) => r.triggerRef === "same-1")).toBe(true);
      });

      it("counts every kind of activity on an engagement's notifications: revisions, reading, follow-ups, acknowledgements, dismissal", async () => {
        const ada = await h.newPerson("Ada");
        const bob = await h.newPerson("Bob");
        const eng = await engagement("Steady", ada.id);
        const stale = async () => (await list(ada.token)).filter((x) => x.trigger.ref?.startsWith(`stale:${eng}:`));
        const run = { kind: "RUN_ACTION", id: "go", label: "Go", actionId: "steady.go" };
        const n = await h.publish({ scope: "PERSON", personId: bob.id, key: "steady", title: "About Steady", engagementId: eng, actions: [run] });
        const shared = await h.publish({ scope: "APPLICATION", key: "steady:all", title: "Steady for all", engagementId: eng });
        // Each step comes 13 days after the one before (the nudge is due after 14 days without any).
        const steps: [string, () => Promise<unknown>][] = [
          [
            "a producer's revision",
            () => h.publish({ scope: "PERSON", personId: bob.id, key: "steady", title: "About Steady, again", engagementId: eng, actions: [run] }),
          ],
          ["reading it", () => gql(h.url, bob.token, `mutation($ids: [ID!]!) { markNotificationsRead(ids: $ids) { id } }`, { ids: [n.id] })],
          ["running a follow-up", () => gql(h.url, bob.token, `mutation($id: ID!) { invokeNotificationAction(id: $id, actionId: "go") { id } }`, { id: n.id })],
          [
            "the producer's acknowledgement",
            async () => {
              const page = await producer(`{ actionInvocations(first: 100) { items { id notificationId } } }`);
              const invocation = page.data!.actionInvocations.items.find((i: any) => i.notificationId === n.id);
              await producer(`mutation($id: ID!) { acknowledgeActionInvocation(id: $id, outcome: ACKNOWLEDGED) { __typename } }`, { id: invocation.id });
            },
          ],
          [
            "a reader's dismissal of a shared one",
            () => gql(h.url, bob.token, `mutation($id: ID!) { dismissNotification(id: $id) { __typename } }`, { id: shared.id }),
          ],
          ["dismissing it", () => gql(h.url, bob.token, `mutation($id: ID!) { dismissNotification(id: $id) { __typename } }`, { id: n.id })],
        ];
        for (const [what, step] of steps) {
          h.clock.advance(13 * DAY);
          await step();
          await nextCycle();
          expect(await stale(), `after ${what}`).toEqual([]);
        }
        // Silence after the last of them is still nudged.
        h.clock.advance(15 * DAY);
        await nextCycle();
        expect(await stale()).toHaveLength(1);
      });
    });
  });
}
