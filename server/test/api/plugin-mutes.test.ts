// Muting a source plugin for a while or until unmuted, over real HTTP and SSE on every provider:
// a mute with an end stops muting when the server's clock passes it, with nothing written;
// mutedPlugins keeps listing the plugins muted now for older clients; rows written before mutes
// had an end (a JSON list of names) read as mutes until unmuted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { untilMarker } from "../support/marker.ts";
import { subscribe } from "../support/sse.ts";
import { storeOf } from "../support/store.ts";

const PREFS = `mutedPlugins mutes { plugin until }`;
const HOUR = 3_600_000;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`plugin mutes on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider);
    });
    afterAll(async () => h?.close());

    const mute = (token: string, plugin: string, until?: Date | string | null) =>
      gql(h.url, token, `mutation($p: String!, $u: DateTime) { mutePlugin(plugin: $p, until: $u) { ${PREFS} } }`, {
        p: plugin,
        u: until instanceof Date ? until.toISOString() : (until ?? null),
      });
    const unmute = (token: string, plugin: string) => gql(h.url, token, `mutation($p: String!) { unmutePlugin(plugin: $p) { ${PREFS} } }`, { p: plugin });
    const viewerPrefs = async (token: string) => (await gql(h.url, token, `{ viewer { preferences { ${PREFS} } } }`)).data.viewer.preferences;
    const created = (events: { type: string; notification: { title: string } }[]) =>
      events.filter((e) => e.type === "CREATED" || e.type === "UPDATED").map((e) => e.notification.title);

    it("mutes with and without an end, lists both, and unmutes", async () => {
      const ada = await h.newPerson("Ada");
      const until = new Date(h.clock.now().getTime() + HOUR);
      const timed = await mute(ada.token, "ci", until);
      expect(timed.errors).toBeUndefined();
      expect(timed.data.mutePlugin).toEqual({ mutedPlugins: ["ci"], mutes: [{ plugin: "ci", until: until.toISOString() }] });
      await mute(ada.token, "deploy");
      expect(await viewerPrefs(ada.token)).toEqual({
        mutedPlugins: ["ci", "deploy"],
        mutes: [
          { plugin: "ci", until: until.toISOString() },
          { plugin: "deploy", until: null },
        ],
      });
      // Muting again replaces the end; the older updatePreferences list keeps it.
      await mute(ada.token, "ci", null);
      const legacy = await gql(h.url, ada.token, `mutation { updatePreferences(input: { mutedPlugins: ["ci", "deploy", "lint"] }) { ${PREFS} } }`);
      expect(legacy.data.updatePreferences.mutes).toEqual([
        { plugin: "ci", until: null },
        { plugin: "deploy", until: null },
        { plugin: "lint", until: null },
      ]);
      const off = await unmute(ada.token, "ci");
      expect(off.data.unmutePlugin.mutedPlugins).toEqual(["deploy", "lint"]);
      expect((await unmute(ada.token, "never-muted")).data.unmutePlugin.mutedPlugins).toEqual(["deploy", "lint"]);
      expect(errorCode(await mute(h.producerKey, "ci"))).toBe("FORBIDDEN");
    });

    it("a muted plugin is not pushed on the person stream until the clock passes the mute's end, and then is", async () => {
      const ada = await h.newPerson("Ada");
      const until = new Date(h.clock.now().getTime() + HOUR);
      await mute(ada.token, "noisy", until);
      const sub = subscribe(h.url, ada.token);
      await h.attached(ada.id);
      await h.publish({ scope: "PERSON", personId: ada.id, key: "m1", title: "muted", source: { plugin: "noisy" } });
      // The marker passes the reader controls: a muted one pushed would arrive before it.
      const [beforeMarker] = await untilMarker(
        [() => sub.events],
        () => h.publish({ scope: "PERSON", personId: ada.id, key: "p1", title: "marker", source: { plugin: "ci" } }),
        (e, marker) => e.notification.id === marker.id,
      );
      expect(created(beforeMarker!)).toEqual([]);
      expect(created(sub.events)).toEqual(["marker"]);

      h.clock.advance(HOUR); // the mute ends by the clock alone: nothing is written
      expect(await viewerPrefs(ada.token)).toEqual({ mutedPlugins: [], mutes: [] });
      await h.publish({ scope: "PERSON", personId: ada.id, key: "m2", title: "no longer muted", source: { plugin: "noisy" } });
      await sub.waitUntil((events) => created(events).includes("no longer muted"));
      expect(created(sub.events)).toEqual(["marker", "no longer muted"]);
      sub.dispose();
      // Both were stored and listed all along: a mute decides only what is pushed.
      const list = await gql(h.url, ada.token, `{ notifications { totalCount } }`);
      expect(list.data.notifications.totalCount).toBe(3);
    });

    it("refuses bad mutes naming the field, and changes nothing", async () => {
      const ada = await h.newPerson("Ada");
      await mute(ada.token, "kept");
      const past = await mute(ada.token, "ci", new Date(h.clock.now().getTime() - 1));
      expect(past.errors![0]!.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "until" });
      const now = await mute(ada.token, "ci", h.clock.now());
      expect(now.errors![0]!.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "until" });
      const empty = await mute(ada.token, "  ");
      expect(empty.errors![0]!.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "plugin" });
      const long = await mute(ada.token, "x".repeat(500));
      expect(long.errors![0]!.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "plugin" });
      const many = await gql(h.url, ada.token, `mutation($l: [String!]!) { updatePreferences(input: { mutedPlugins: $l }) { mutedPlugins } }`, {
        l: Array.from({ length: 100 }, (_, i) => `p${i}`),
      });
      expect(many.data.updatePreferences.mutedPlugins).toHaveLength(100);
      const over = await mute(ada.token, "one-more");
      expect(over.errors![0]!.extensions).toMatchObject({ code: "VALIDATION_ERROR", field: "plugin" });
      expect((await mute(ada.token, "p0", new Date(h.clock.now().getTime() + HOUR))).errors).toBeUndefined();
      await gql(h.url, ada.token, `mutation { updatePreferences(input: { mutedPlugins: ["kept"] }) { mutedPlugins } }`);
      expect(await viewerPrefs(ada.token)).toEqual({ mutedPlugins: ["kept"], mutes: [{ plugin: "kept", until: null }] });
    });

    it("reads a row written before mutes had an end as mutes until unmuted, and rewrites it on the next change", async () => {
      const ada = await h.newPerson("Ada");
      const store = storeOf(h.herald.database);
      await store.execute(
        store.build
          .updateTable("Person")
          .set({ mutedPlugins: JSON.stringify(["old-a", "old-b"]) })
          .where("id", "=", ada.id),
      );
      expect(await viewerPrefs(ada.token)).toEqual({
        mutedPlugins: ["old-a", "old-b"],
        mutes: [
          { plugin: "old-a", until: null },
          { plugin: "old-b", until: null },
        ],
      });
      const sub = subscribe(h.url, ada.token);
      await h.attached(ada.id);
      await h.publish({ scope: "PERSON", personId: ada.id, key: "o", title: "old mute", source: { plugin: "old-a" } });
      const [beforeMarker] = await untilMarker(
        [() => sub.events],
        () => h.publish({ scope: "PERSON", personId: ada.id, key: "p", title: "marker", source: { plugin: "ci" } }),
        (e, marker) => e.notification.id === marker.id,
      );
      sub.dispose();
      expect(created(beforeMarker!)).toEqual([]);
      await unmute(ada.token, "old-b");
      const [row] = await store.pick("Person", ["mutedPlugins"], (q) => q.where("id", "=", ada.id));
      expect(JSON.parse(row!.mutedPlugins)).toEqual([{ plugin: "old-a", until: null }]);
    });

    // Each change reads the stored controls and writes them back: without the row read and written
    // in one transaction (locked on PostgreSQL), edits at once overwrote each other's mutes.
    it("keeps every one of many mutes and a quiet-mode change sent at once", async () => {
      const ada = await h.newPerson("Ada");
      const plugins = Array.from({ length: 12 }, (_, i) => `source-${i}`);
      const answers = await Promise.all([
        ...plugins.map((plugin) => mute(ada.token, plugin)),
        gql(h.url, ada.token, `mutation { setQuietMode(enabled: true) { quietMode } }`),
        gql(h.url, ada.token, `mutation { updatePreferences(input: { severityFloor: WARNING }) { ${PREFS} } }`),
      ]);
      expect(answers.flatMap((a) => a.errors ?? [])).toEqual([]);
      const after = (await gql(h.url, ada.token, `{ viewer { preferences { quietMode severityFloor mutedPlugins } } }`)).data.viewer.preferences;
      expect([...after.mutedPlugins].sort()).toEqual([...plugins].sort());
      expect(after.quietMode).toBe(true);
      expect(after.severityFloor).toBe("WARNING");
    });
  });
}
