// The live view against a real server: bursts, a server killed mid-burst, UI effects across a
// reconnect, and hide-and-retry dismissal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPersonClient,
  createProducerClient,
  type LiveView,
  type Notification,
  type PersonClient,
  type ProducerClient,
  UiEffectsDispatcher,
} from "../src/index.ts";
import { eventually, startServer, type TestServer, untilMarker } from "./support/server.ts";

const summary = (items: readonly Notification[]) => items.map((n) => `${n.id}@${n.revision}:${n.status}`);

async function snapshot(client: PersonClient) {
  const items: Notification[] = [];
  for await (const n of client.all()) items.push(n);
  return { items: summary(items), counts: await client.counts() };
}

async function settledEqual(view: LiveView, client: PersonClient, timeoutMs = 20_000) {
  let fresh!: Awaited<ReturnType<typeof snapshot>>;
  // Not settling is reported by the caller's comparison of `live` and `fresh`, which shows the difference.
  const ok = await eventually(
    async () => {
      fresh = await snapshot(client);
      const s = view.current;
      return (
        s.connection === "live" && JSON.stringify(summary(s.items)) === JSON.stringify(fresh.items) && JSON.stringify(s.counts) === JSON.stringify(fresh.counts)
      );
    },
    timeoutMs,
    "the live view to match a fresh read",
    250,
  ).then(
    () => true,
    () => false,
  );
  return { ok, fresh, live: { items: summary(view.current.items), counts: view.current.counts } };
}

/** A mix of every kind of change, `count` of them, a few in flight at a time. */
async function burst(producer: ProducerClient, person: PersonClient, personId: string, count: number, prefix: string) {
  const ids: Notification[] = [];
  let n = 0;
  const one = async (i: number) => {
    const roll = i % 10;
    try {
      if (roll < 4 || ids.length < 5) {
        const r = await producer.publish({ scope: "PERSON", personId, key: `${prefix}-${i % 150}`, title: `${prefix} ${i}`, source: { plugin: "burst" } });
        if (r.ok) ids.push(r.notification);
      } else {
        const target = ids[(i * 7) % ids.length]!;
        if (roll === 4) await person.markSeen([target.id]);
        else if (roll === 5) await person.dismiss((await person.get(target.id)) ?? target);
        else if (roll === 6) await producer.resolve(target.id);
        else if (roll === 7) await person.snooze(target.id, new Date(Date.now() + 3_600_000)).catch(() => undefined);
        else if (roll === 8) await person.unsnooze(target.id).catch(() => undefined);
        else await producer.update(target.id, { body: `patched ${i}` }).catch(() => undefined);
      }
    } catch {
      // a change refused because another one got there first is part of the mix
    }
  };
  const workers = Array.from({ length: 6 }, async () => {
    while (n < count) await one(n++);
  });
  await Promise.all(workers);
}

describe("live view", () => {
  let server: TestServer;
  let producer: ProducerClient;

  beforeAll(async () => {
    server = await startServer();
    producer = createProducerClient({ url: server.url, token: server.producerKey });
  });
  afterAll(async () => {
    producer?.close();
    await server?.close();
  });

  it("equals a fresh snapshot after a burst of 1,000 mixed changes", async () => {
    const person = await server.newPerson("Burst");
    const client = createPersonClient({ url: server.url, token: person.token });
    await burst(producer, client, person.id, 50, "pre");
    const view = client.live();
    const states: string[] = [];
    view.subscribe((s) => states.push(s.connection));
    await eventually(() => view.current.connection === "live");
    await burst(producer, client, person.id, 1_000, "b");
    const result = await settledEqual(view, client);
    expect(result.live).toEqual({ items: result.fresh.items, counts: result.fresh.counts });
    expect(result.ok).toBe(true);
    expect(states[0]).toBe("connecting");
    view.close();
    client.close();
  });

  it("still ends equal to the snapshot when the server is killed and restarted mid-burst", async () => {
    const person = await server.newPerson("Restart");
    const client = createPersonClient({ url: server.url, token: person.token });
    const view = client.live({}, { backoff: { initialMs: 100, maxMs: 1_000 } });
    const states = new Set<string>();
    view.subscribe((s) => states.add(s.connection));
    await eventually(() => view.current.connection === "live");
    await burst(producer, client, person.id, 150, "r1");
    await server.kill();
    await eventually(() => view.current.connection !== "live", 5_000);
    await server.start();
    await burst(producer, client, person.id, 150, "r2");
    const result = await settledEqual(view, client);
    expect(result.live).toEqual({ items: result.fresh.items, counts: result.fresh.counts });
    expect(states.has("reconnecting")).toBe(true);
    view.close();
    client.close();
  });

  it("fires UI effects exactly once per revision, across a reconnect, never for terminal revisions", async () => {
    const person = await server.newPerson("Effects");
    const client = createPersonClient({ url: server.url, token: person.token });
    const dispatcher = new UiEffectsDispatcher();
    const reloads: string[] = [];
    let failNext = true;
    dispatcher.mount({ kind: "sessionsList" }, async () => {
      reloads.push("sessionsList");
      if (failNext) {
        failNext = false;
        throw new Error("reload failed"); // stays pending and is delivered again
      }
    });
    // "Nothing more" by a marker: a record whose own effect (application actions) the view runs
    // after those of everything it observed before it, on its one ordered stream.
    let marker = "";
    dispatcher.mount({ kind: "applicationActions" }, () => void reloads.push(marker));
    const reloadsBeforeMarker = async (key: string) => {
      marker = key;
      const publish = () =>
        producer.publish({ scope: "PERSON", personId: person.id, key, title: key, source: { plugin: "fx" }, uiEffects: { reload_application_actions: true } });
      const [before] = await untilMarker([() => reloads], publish, (reload) => reload === key);
      return before!;
    };
    const sessions: string[] = [];
    const view = client.live({}, { uiEffects: dispatcher, backoff: { initialMs: 100, maxMs: 1_000 } });
    view.subscribe(() => undefined);
    await eventually(() => view.current.connection === "live");
    const pub = (title: string, uiEffects?: unknown) =>
      producer.publish({ scope: "PERSON", personId: person.id, key: "fx", title, source: { plugin: "fx" }, ...(uiEffects ? { uiEffects } : {}) });
    const r1 = await pub("one", { reload_sessions_list: true, unknown_field: { x: 1 } });
    await eventually(() => reloads.length >= 1);
    expect(await reloadsBeforeMarker("fx-marker-1")).toEqual(["sessionsList"]); // the failed reload leaves it pending, not retried by itself
    expect(dispatcher.pending()).toEqual([{ kind: "sessionsList" }]);
    const unmount = dispatcher.mount({ kind: "session", sessionId: "s-9" }, async (i) => {
      if (i.kind === "session") sessions.push(i.sessionId);
    });
    // A later mount receives the pending invalidation; its success acknowledges it.
    dispatcher.mount({ kind: "sessionsList" }, async () => void reloads.push("second consumer"));
    await eventually(() => dispatcher.pending().length === 0);
    await server.restart();
    await eventually(() => view.current.connection === "live", 20_000);
    await pub("two", { reload_session_ids: ["s-9"] });
    await eventually(() => sessions.length >= 1);
    await pub("three"); // no effects: not inherited
    if (r1.ok) await producer.resolve(r1.notification.id);
    // Both changes reach the view before the marker: neither may run an effect again.
    await reloadsBeforeMarker("fx-marker-2");
    expect(sessions).toEqual(["s-9"]);
    expect(reloads.filter((r) => r === "second consumer")).toHaveLength(1);
    unmount();
    view.close();
    client.close();
  });

  it("keeps an optimistically dismissed revision hidden while the server is away, retries it, and never hides a newer one", async () => {
    const person = await server.newPerson("Mobile");
    const client = createPersonClient({ url: server.url, token: person.token });
    const view = client.live({}, { backoff: { initialMs: 100, maxMs: 800 } });
    view.subscribe(() => undefined);
    await eventually(() => view.current.connection === "live");
    const a = await producer.publish({ scope: "PERSON", personId: person.id, key: "hide", title: "hide me", source: { plugin: "m" } });
    const b = await producer.publish({ scope: "PERSON", personId: person.id, key: "newer", title: "v1", source: { plugin: "m" } });
    if (!a.ok || !b.ok) throw new Error("publish failed");
    await eventually(() => view.current.items.length === 2);

    await server.kill();
    const pendingA = await client.dismissals.dismiss(a.notification);
    expect(pendingA).toMatchObject({ ok: false, reason: "pending" });
    const pendingB = await client.dismissals.dismiss(b.notification);
    expect(pendingB).toMatchObject({ ok: false, reason: "pending" });
    expect(view.current.items.map((n) => n.id)).toEqual([]); // hidden at once, no blocking error
    await server.start();
    // The producer changes B meanwhile: the stale dismissal must not hide revision 2.
    await producer.publish({ scope: "PERSON", personId: person.id, key: "newer", title: "v2", source: { plugin: "m" } });
    await eventually(() => view.current.connection === "live" && view.current.items.some((n) => n.title === "v2"), 20_000);
    await eventually(async () => (await client.get(a.notification.id))?.status === "DISMISSED");
    expect((await client.get(a.notification.id))?.status).toBe("DISMISSED");
    // Whether the retry reached the server before or after v2 was published, v2 is what shows:
    // either the retry met revision 2 and was refused (conflict), or it dismissed revision 1
    // first and v2 became a new occurrence. Never is the newer content hidden.
    expect(view.current.items.map((n) => n.title)).toEqual(["v2"]);
    const shown = view.current.items[0]!;
    expect(["PENDING", "DELIVERED"]).toContain((await client.get(shown.id))?.status);
    expect(client.dismissals.isHidden(shown)).toBe(false);
    await eventually(() => client.dismissals.size === 0);
    expect(client.dismissals.size).toBe(0);
    view.close();
    client.close();
  });
});
