// Read apart from seen, against a real server: live views of one client follow READ and UNREAD
// events caused by another client of the same person, and their counts stay equal to what the
// server's lists and counts say.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPersonClient, type LiveView, type NotificationEvent, type PersonClient } from "../src/index.ts";
import { eventually, startClients, type TestClients } from "./support/server.ts";

describe("read state in live views", () => {
  let c: TestClients;
  /** The same person in another tab or device. */
  let other: PersonClient;
  beforeAll(async () => {
    c = await startClients();
    other = createPersonClient({ url: c.server.url, token: c.server.person.token });
  }, 300_000); // starting a server process (migrate, CLI, serve) is slow on a busy machine
  afterAll(async () => {
    other?.close();
    await c?.close();
  });

  const open = (view: LiveView) => {
    view.subscribe(() => undefined);
    return view;
  };
  /** What the server says for the view's filter, to compare with what the view shows. */
  async function serverSays(filter: Parameters<PersonClient["counts"]>[0]) {
    const counts = await c.ada.counts(filter);
    const unreadPage = await c.ada.page({ first: 100, filter: { ...filter, unread: true } });
    return { counts, unreadIds: unreadPage.items.map((n) => n.id).sort() };
  }

  it("follows READ and UNREAD from another client, with counts equal to the server's lists", async () => {
    const ids: string[] = [];
    for (const [key, scope] of [
      ["read:1", "PERSON"],
      ["read:2", "PERSON"],
      ["read:shared", "APPLICATION"],
    ] as const) {
      const r = await c.producer.publish({
        scope,
        ...(scope === "PERSON" ? { personId: c.server.person.id } : {}),
        key,
        title: key,
        source: { plugin: "sdk-tests" },
      });
      if (!r.ok) throw new Error(r.message);
      ids.push(r.notification.id);
    }
    const [first, second, shared] = ids as [string, string, string];
    const all = open(c.ada.live());
    const unread = open(c.ada.live({ unread: true }));
    const events: NotificationEvent[] = [];
    const stopEvents = c.ada.events(await c.ada.eventsCursor(), { next: (e) => events.push(e), error: () => undefined, complete: () => undefined });
    await eventually(
      () => all.current.connection === "live" && unread.current.connection === "live" && all.current.items.length === 3,
      10_000,
      "both views to load",
    );
    expect(all.current.counts).toMatchObject({ total: 3, unseen: 3, unread: 3 });
    expect(unread.current.items.map((n) => n.id).sort()).toEqual([...ids].sort());

    // Read elsewhere: read implies seen, so the badge drops too; the unread view lets it go.
    await other.markRead([first, shared]);
    await eventually(() => all.current.counts.unread === 1, 10_000, "the view to follow READ");
    expect(all.current.counts).toEqual({ total: 3, unseen: 1, unread: 1 });
    expect(all.current.items.find((n) => n.id === first)).toMatchObject({ status: "SEEN" });
    expect(all.current.items.find((n) => n.id === first)!.readAt).not.toBeNull();
    await eventually(() => unread.current.items.length === 1, 10_000, "the unread view to drop what was read");
    expect(unread.current.items.map((n) => n.id)).toEqual([second]);
    expect(unread.current.counts).toEqual({ total: 1, unseen: 1, unread: 1 });
    let truth = await serverSays({});
    expect(all.current.counts).toEqual(truth.counts);
    expect(unread.current.items.map((n) => n.id).sort()).toEqual(truth.unreadIds);

    // Unread elsewhere: back in the unread view, still seen (the badge does not come back).
    await other.markUnread([first]);
    await eventually(() => all.current.counts.unread === 2, 10_000, "the view to follow UNREAD");
    expect(all.current.counts).toEqual({ total: 3, unseen: 1, unread: 2 });
    await eventually(() => unread.current.items.length === 2, 10_000, "the unread view to take it back");
    expect(unread.current.items.find((n) => n.id === first)).toMatchObject({ status: "SEEN", readAt: null });
    truth = await serverSays({});
    expect(all.current.counts).toEqual(truth.counts);
    expect(unread.current.items.map((n) => n.id).sort()).toEqual(truth.unreadIds);

    // Everything read elsewhere.
    expect(await other.markAllRead()).toBe(2);
    await eventually(() => all.current.counts.unread === 0 && unread.current.items.length === 0, 10_000, "both views to follow mark-all-read");
    expect(all.current.counts).toEqual({ total: 3, unseen: 0, unread: 0 });
    expect(unread.current.counts).toEqual({ total: 0, unseen: 0, unread: 0 });
    expect(await c.ada.counts()).toEqual(all.current.counts);

    // The raw stream names what happened.
    await eventually(() => events.filter((e) => e.type === "READ").length >= 4, 10_000, "the READ events");
    expect(events.filter((e) => e.notification.id === first).map((e) => e.type)).toEqual(["READ", "UNREAD", "READ"]);
    stopEvents();
    all.close();
    unread.close();
  });
});
