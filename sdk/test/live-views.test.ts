// Live views of one client against a real server: a view that already shows a TTL record keeps it
// past its deadline while a view opened after the deadline does not present it, and the views
// share the client's one ui-effects dispatcher (an effect runs once however many views see it).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eventually, startClients, type TestClients, untilMarker } from "./support/server.ts";

describe("live views of one client", () => {
  let c: TestClients;
  beforeAll(async () => {
    c = await startClients();
  }, 300_000); // starting a server process (migrate, CLI, serve) is slow on a busy machine
  afterAll(async () => c?.close());
  afterEach(() => void vi.useRealTimers());

  it("keeps a shown record past its deadline until the person acts; a new view leaves it out", async () => {
    // Far enough ahead that a busy machine still publishes it before the deadline.
    const expiresAt = new Date(Date.now() + 15_000);
    const published = await c.producer.publish({
      scope: "PERSON",
      personId: c.server.person.id,
      key: "ttl:visible",
      title: "Deploy window open",
      source: { plugin: "sdk-tests" },
      retention: { policy: "TTL", expiresAt: expiresAt.toISOString() },
    });
    if (!published.ok) throw new Error(`publish failed: ${JSON.stringify(published)}`);
    const id = published.notification.id;
    const view = c.ada.live();
    view.subscribe(() => undefined);
    await eventually(() => view.current.connection === "live" && view.current.items.some((n) => n.id === id), 10_000, "the record to show");

    // Past the deadline on this process's clock (the SDK's): only Date moves, the timers and the
    // server keep real time. The server still lists the record to a new view, so leaving it out
    // below is the SDK's own judgement, the rule under test here (the server's is tested there).
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(expiresAt.getTime() + 1_000);
    // Any change makes the view judge its records again; the deadline has passed by now.
    const other = await c.producer.publish({
      scope: "PERSON",
      personId: c.server.person.id,
      key: "ttl:other",
      title: "Other",
      source: { plugin: "sdk-tests" },
    });
    if (!other.ok) throw new Error("publish failed");
    await eventually(() => view.current.items.some((n) => n.id === other.notification.id), 10_000, "the other record to arrive");
    expect(view.current.items.map((n) => n.id)).toContain(id);

    const fresh = c.ada.live();
    fresh.subscribe(() => undefined);
    await eventually(() => fresh.current.connection === "live", 10_000, "the new view to load");
    expect(fresh.current.items.map((n) => n.id)).not.toContain(id);
    expect(fresh.current.items.map((n) => n.id)).toContain(other.notification.id);

    // The person acts: dismissing removes it from the view that kept it.
    const shown = view.current.items.find((n) => n.id === id)!;
    const dismissed = await c.ada.dismiss(shown);
    expect(dismissed.ok).toBe(true);
    await eventually(() => !view.current.items.some((n) => n.id === id), 10_000, "the dismissed record to leave the view");
    view.close();
    fresh.close();
  });

  it("runs a ui effect once through the client's one dispatcher with two live views open", async () => {
    const reloads: string[] = [];
    const stop = c.ada.uiEffects.mount({ kind: "sessionsList" }, () => {
      reloads.push("sessions list");
    });
    const all = c.ada.live();
    const personal = c.ada.live({ scope: "PERSON" });
    all.subscribe(() => undefined);
    personal.subscribe(() => undefined);
    expect(all.uiEffects).toBe(c.ada.uiEffects);
    expect(personal.uiEffects).toBe(c.ada.uiEffects);
    await eventually(() => all.current.connection === "live" && personal.current.connection === "live", 10_000, "both views to be live");
    const published = await c.producer.publish({
      scope: "PERSON",
      personId: c.server.person.id,
      key: "effects:once",
      title: "Sessions changed",
      source: { plugin: "sdk-tests" },
      uiEffects: { reload_sessions_list: true },
    });
    if (!published.ok) throw new Error("publish failed");
    const id = published.notification.id;
    await eventually(() => all.current.items.some((n) => n.id === id) && personal.current.items.some((n) => n.id === id), 10_000, "both views to show it");
    // Nothing more: each view observes the marker after the record above (one ordered stream per
    // view), so a second run of its effect would come before the marker's own reload.
    const stopMarker = c.ada.uiEffects.mount({ kind: "applicationActions" }, () => {
      reloads.push("application actions");
    });
    const [beforeMarker] = await untilMarker(
      [() => reloads],
      async () => {
        const marker = await c.producer.publish({
          scope: "PERSON",
          personId: c.server.person.id,
          key: "effects:marker",
          title: "Actions changed",
          source: { plugin: "sdk-tests" },
          uiEffects: { reload_application_actions: true },
        });
        if (!marker.ok) throw new Error("publish failed");
        return marker.notification.id;
      },
      (reload) => reload === "application actions",
    );
    expect(beforeMarker).toEqual(["sessions list"]);
    // Both views have the marker too, so its effect ran once through the one dispatcher as well.
    await eventually(
      () => [all, personal].every((view) => view.current.items.some((n) => n.key === "effects:marker")),
      10_000,
      "both views to show the marker",
    );
    expect(reloads).toEqual(["sessions list", "application actions"]);
    stopMarker();
    stop();
    all.close();
    personal.close();
  });
});
