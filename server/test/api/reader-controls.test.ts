// Reader controls over real HTTP and SSE on every provider: muted plugins and a severity floor
// (stored and listed, never pushed), quiet hours driven by the clock (held, ERROR passes,
// released when they end), severity/plugin filters, dismissAll of what was seen, producer data.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { untilMarker } from "../support/marker.ts";
import { subscribe } from "../support/sse.ts";

const PREFS = `mutedPlugins severityFloor quietMode quietHours { start end timeZone allowErrors }`;
const hhmm = (d: Date) => d.toISOString().slice(11, 16);

for (const provider of providers) {
  describe.skipIf(!provider.available)(`reader controls on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider, { quietHoursCheckMs: 50 });
    });
    afterAll(async () => h?.close());

    const prefs = (token: string, input: Record<string, unknown>) =>
      gql(h.url, token, `mutation($i: PreferencesInput!) { updatePreferences(input: $i) { ${PREFS} } }`, { i: input });
    const created = (events: { type: string; notification: { title: string } }[]) =>
      events.filter((e) => e.type === "CREATED" || e.type === "UPDATED").map((e) => e.notification.title);
    const seen = (token: string, ids: string[]) => gql(h.url, token, `mutation($ids: [ID!]!) { markNotificationsSeen(ids: $ids) { id } }`, { ids });

    it("stores and lists muted and below-floor notifications but never pushes them", async () => {
      const ada = await h.newPerson("Ada");
      const set = await prefs(ada.token, { mutedPlugins: ["noisy"], severityFloor: "WARNING" });
      expect(set.data.updatePreferences).toMatchObject({ mutedPlugins: ["noisy"], severityFloor: "WARNING", quietMode: false, quietHours: null });
      const sub = subscribe(h.url, ada.token);
      await h.attached(ada.id);
      const muted = await h.publish({ scope: "PERSON", personId: ada.id, key: "m", title: "muted error", severity: "ERROR", source: { plugin: "noisy" } });
      const low = await h.publish({ scope: "PERSON", personId: ada.id, key: "l", title: "below floor", severity: "SUCCESS", source: { plugin: "ci" } });
      // The one that passes is the marker: a muted or low one pushed would arrive before it.
      const [beforeMarker] = await untilMarker(
        [() => sub.events],
        () => h.publish({ scope: "PERSON", personId: ada.id, key: "w", title: "warning", severity: "WARNING", source: { plugin: "ci" } }),
        (e, marker) => e.notification.id === marker.id,
      );
      sub.dispose();
      expect(created(beforeMarker!)).toEqual([]);
      expect(created(sub.events)).toEqual(["warning"]);
      const list = await gql(h.url, ada.token, `{ notifications { edges { node { title status } } } notificationCounts { total unseen } }`);
      const byTitle = Object.fromEntries(list.data.notifications.edges.map((e: any) => [e.node.title, e.node.status]));
      // Not pushed, so never delivered: they stay PENDING and count as unseen.
      expect(byTitle).toMatchObject({ "muted error": "PENDING", "below floor": "PENDING" });
      expect(list.data.notificationCounts).toEqual({ total: 3, unseen: 3 });
      const viewer = await gql(h.url, ada.token, `{ viewer { preferences { ${PREFS} } } }`);
      expect(viewer.data.viewer.preferences.mutedPlugins).toEqual(["noisy"]);
      expect([muted.id, low.id].every(Boolean)).toBe(true);
    });

    it("holds during quiet hours, lets ERROR through with what was held before it, and releases when they end", async () => {
      const ada = await h.newPerson("Ada");
      const now = h.clock.now();
      const start = hhmm(new Date(now.getTime() - 60 * 60_000));
      const end = hhmm(new Date(now.getTime() + 60 * 60_000));
      // What Ada already has keeps streaming in quiet hours: marking it seen is the marker.
      const known = await h.publish({ scope: "PERSON", personId: ada.id, key: "known", title: "known" });
      const set = await prefs(ada.token, { quietHours: { start, end, timeZone: "UTC" } });
      expect(set.data.updatePreferences.quietHours).toEqual({ start, end, timeZone: "UTC", allowErrors: true });
      const sub = subscribe(h.url, ada.token);
      await h.attached(ada.id);
      await h.publish({ scope: "PERSON", personId: ada.id, key: "q1", title: "held 1", severity: "WARNING" });
      const marker = readingMarker(h, ada.token, known.id, sub);
      await marker();
      expect(created(sub.events)).toEqual([]);
      await h.publish({ scope: "PERSON", personId: ada.id, key: "e", title: "urgent", severity: "ERROR" });
      await sub.waitUntil((events) => created(events).includes("urgent"));
      // The cursor never skips an event: what was held before the ERROR goes first.
      expect(created(sub.events)).toEqual(["held 1", "urgent"]);
      await h.publish({ scope: "PERSON", personId: ada.id, key: "q2", title: "held 2" });
      await marker();
      expect(created(sub.events)).toEqual(["held 1", "urgent"]);
      h.clock.advance(61 * 60_000); // quiet hours end: the stream notices by itself
      await sub.waitUntil((events) => created(events).includes("held 2"));
      expect(created(sub.events)).toEqual(["held 1", "urgent", "held 2"]);
      sub.dispose();
    });

    it("holds ERROR too when allowErrors is false", async () => {
      const ada = await h.newPerson("Ada");
      const now = h.clock.now();
      const known = await h.publish({ scope: "PERSON", personId: ada.id, key: "known", title: "known" });
      await prefs(ada.token, {
        quietHours: { start: hhmm(new Date(now.getTime() - 3_600_000)), end: hhmm(new Date(now.getTime() + 3_600_000)), timeZone: "UTC", allowErrors: false },
      });
      const sub = subscribe(h.url, ada.token);
      await h.attached(ada.id);
      await h.publish({ scope: "PERSON", personId: ada.id, key: "e", title: "urgent", severity: "ERROR" });
      await readingMarker(h, ada.token, known.id, sub)();
      expect(created(sub.events)).toEqual([]);
      await prefs(ada.token, { quietHours: null });
      await sub.waitUntil((events) => created(events).includes("urgent"));
      sub.dispose();
    });

    it("refuses bad preferences with the field named and changes nothing", async () => {
      const ada = await h.newPerson("Ada");
      await prefs(ada.token, { mutedPlugins: ["kept"] });
      const bad = await prefs(ada.token, { mutedPlugins: ["other"], quietHours: { start: "22:00", end: "07:00", timeZone: "Nowhere/Land" } });
      expect(errorCode(bad)).toBe("VALIDATION_ERROR");
      expect(bad.errors![0]!.extensions!.field).toBe("input.quietHours.timeZone");
      const viewer = await gql(h.url, ada.token, `{ viewer { preferences { mutedPlugins quietHours { start } } } }`);
      expect(viewer.data.viewer.preferences).toEqual({ mutedPlugins: ["kept"], quietHours: null });
      const producer = await prefs(h.producerKey, { mutedPlugins: [] });
      expect(errorCode(producer)).toBe("FORBIDDEN");
    });

    it("filters lists, counts and markAll by severity and source plugin", async () => {
      const ada = await h.newPerson("Ada");
      await h.publish({ scope: "PERSON", personId: ada.id, key: "a", title: "ci error", severity: "ERROR", source: { plugin: "ci" } });
      await h.publish({ scope: "PERSON", personId: ada.id, key: "b", title: "ci info", severity: "INFO", source: { plugin: "ci" } });
      await h.publish({ scope: "PERSON", personId: ada.id, key: "c", title: "deploy error", severity: "ERROR", source: { plugin: "deploy" } });
      const q = `query($f: NotificationFilter) { notifications(filter: $f) { edges { node { title } } } notificationCounts(filter: $f) { total unseen } }`;
      const titles = async (f: Record<string, unknown>) => {
        const r = await gql(h.url, ada.token, q, { f });
        return { titles: r.data.notifications.edges.map((e: any) => e.node.title).sort(), counts: r.data.notificationCounts };
      };
      expect(await titles({ severities: ["ERROR"] })).toEqual({ titles: ["ci error", "deploy error"], counts: { total: 2, unseen: 2 } });
      expect(await titles({ plugins: ["ci"] })).toEqual({ titles: ["ci error", "ci info"], counts: { total: 2, unseen: 2 } });
      expect(await titles({ plugins: ["ci"], severities: ["ERROR"] })).toEqual({ titles: ["ci error"], counts: { total: 1, unseen: 1 } });
      const marked = await gql(h.url, ada.token, `mutation { markAllNotificationsSeen(filter: { plugins: ["deploy"] }) }`);
      expect(marked.data.markAllNotificationsSeen).toBe(1);
      expect((await titles({})).counts).toEqual({ total: 3, unseen: 2 });
      const tooMany = await gql(h.url, ada.token, q, { f: { plugins: Array.from({ length: 101 }, (_, i) => `p${i}`) } });
      expect(tooMany.errors![0]!.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "filter.plugins" });
    });

    it("dismissAll clears only what the reader has seen at its current revision, APPLICATION ones for that reader only", async () => {
      const ada = await h.newPerson("Ada");
      const bob = await h.newPerson("Bob");
      const seenOne = await h.publish({ scope: "PERSON", personId: ada.id, key: "s", title: "seen" });
      await h.publish({ scope: "PERSON", personId: ada.id, key: "u", title: "unseen" });
      const revised = await h.publish({ scope: "PERSON", personId: ada.id, key: "r", title: "revised v1" });
      const other = await h.publish({ scope: "PERSON", personId: ada.id, key: "o", title: "other plugin", source: { plugin: "elsewhere" } });
      const shared = await h.publish({ scope: "APPLICATION", key: `shared-${ada.id}`, title: "shared" });
      await seen(ada.token, [seenOne.id, revised.id, other.id, shared.id]);
      await seen(bob.token, [shared.id]);
      await h.publish({ scope: "PERSON", personId: ada.id, key: "r", title: "revised v2" }); // arrived after she saw v1

      const filtered = await gql(h.url, ada.token, `mutation { dismissAll(filter: { plugins: ["tests"] }) }`);
      expect(filtered.data.dismissAll).toBe(2); // "seen" and "shared"; "other plugin" is outside the filter
      const list = await gql(h.url, ada.token, `{ notifications(filter: { includeTerminal: true }) { edges { node { title status } } } }`);
      const status = Object.fromEntries(list.data.notifications.edges.map((e: any) => [e.node.title, e.node.status]));
      expect(status).toMatchObject({ seen: "DISMISSED", unseen: "PENDING", "revised v2": "PENDING", "other plugin": "SEEN", shared: "DISMISSED" });
      const bobView = await gql(h.url, bob.token, `query($id: ID!) { notification(id: $id) { status } }`, { id: shared.id });
      expect(bobView.data.notification.status).toBe("SEEN");
      expect((await gql(h.url, ada.token, `mutation { dismissAll }`)).data.dismissAll).toBe(1); // "other plugin"
      expect((await gql(h.url, ada.token, `mutation { dismissAll }`)).data.dismissAll).toBe(0);
      expect(errorCode(await gql(h.url, h.producerKey, `mutation { dismissAll }`))).toBe("FORBIDDEN");
    });

    it("stores the producer's data, keeps it across patches that leave it out, refuses more than 16 KiB", async () => {
      const ada = await h.newPerson("Ada");
      const data = { build: 42, tags: ["a", "b"], nested: { ok: true } };
      const n = await h.publish({ scope: "PERSON", personId: ada.id, key: "d", title: "with data", data });
      const read = async () => (await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { data revision } }`, { id: n.id })).data.notification;
      expect(await read()).toEqual({ data, revision: 1 });
      await gql(h.url, h.producerKey, `mutation($id: ID!) { updateNotification(id: $id, patch: { title: "retitled" }) { __typename } }`, { id: n.id });
      expect(await read()).toEqual({ data, revision: 2 });
      const big = { blob: "x".repeat(16 * 1024) };
      const refused = await gql(
        h.url,
        h.producerKey,
        `mutation($i: PublishNotificationInput!) { publishNotification(input: $i) { __typename ... on ValidationError { field } } }`,
        { i: { scope: "PERSON", personId: ada.id, key: "big", title: "too big", source: { plugin: "tests" }, data: big } },
      );
      expect(refused.data.publishNotification).toEqual({ __typename: "ValidationError", field: "data" });
      const patched = await gql(
        h.url,
        h.producerKey,
        `mutation($id: ID!, $d: JSON) { updateNotification(id: $id, patch: { data: $d }) { __typename ... on ValidationError { field } } }`,
        { id: n.id, d: big },
      );
      expect(patched.data.updateNotification).toEqual({ __typename: "ValidationError", field: "patch.data" });
      expect(await read()).toEqual({ data, revision: 2 });
      const count = await gql(h.url, ada.token, `{ notifications(filter: { scope: PERSON }) { totalCount } }`);
      expect(count.data.notifications.totalCount).toBe(1);
    });
  });
}

/**
 * "Nothing was pushed", shown by an event: the person reads (then unreads, and so on) a record
 * they had before quiet began. Its reading-state events stream at once, quiet or not, and a
 * person's events arrive in order, so anything wrongly pushed arrives before the marker.
 */
function readingMarker(h: TestHerald, token: string, knownId: string, sub: ReturnType<typeof subscribe>) {
  let marks = 0;
  return async () => {
    marks++;
    const mutation = marks % 2 === 1 ? "markNotificationsRead" : "markNotificationsUnread";
    await gql(h.url, token, `mutation($ids: [ID!]!) { ${mutation}(ids: $ids) { id } }`, { ids: [knownId] });
    await sub.waitUntil((events) => events.filter((e) => e.notification.id === knownId && (e.type === "READ" || e.type === "UNREAD")).length >= marks);
  };
}
