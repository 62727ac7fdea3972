// @vitest-environment happy-dom
// @herald/sdk/react against a real server, rendered by react-dom in a DOM: the hooks follow
// publishes and seen marks, and unmounting the last component ends the view's stream.
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPersonClient, createProducerClient, type PersonClient, type ProducerClient } from "../src/index.ts";
import { useHeraldCounts, useHeraldNotifications } from "../src/react.ts";
import { eventually, startServer, type TestServer } from "./support/server.ts";

describe("React hooks", () => {
  let server: TestServer;
  let producer: ProducerClient;

  beforeAll(async () => {
    // The test page's origin (happy-dom's default) calls Herald as a browser app on another origin would.
    server = await startServer({ HERALD_CORS_ORIGINS: location.origin });
    producer = createProducerClient({ url: server.url, token: server.producerKey });
  });
  afterAll(async () => {
    cleanup();
    producer?.close();
    await server?.close();
  });

  it("renders live notifications and counts, and lets the stream go on unmount", async () => {
    const ada = createPersonClient({ url: server.url, token: server.person.token });
    let streams = 0;
    const live = ada.live.bind(ada);
    const views: ReturnType<PersonClient["live"]>[] = [];
    ada.live = (filter, options) => {
      streams++;
      const view = live(filter, options);
      views.push(view);
      return view;
    };
    const { result, unmount } = renderHook(() => {
      // A new filter object every render must not restart the view.
      const state = useHeraldNotifications(ada, { statuses: ["PENDING", "DELIVERED", "SEEN"] });
      const counts = useHeraldCounts(ada, {});
      return { state, counts };
    });
    await eventually(() => result.current.state.connection === "live", 20_000);
    expect(streams).toBe(2); // one view per hook, not per render

    const published = await producer.publish({
      scope: "PERSON",
      personId: server.person.id,
      key: "react:1",
      title: "From React",
      source: { plugin: "sdk-test" },
    });
    if (!published.ok) throw new Error(published.message);
    await eventually(() => result.current.state.items.some((n) => n.id === published.notification.id), 20_000);
    await eventually(() => result.current.counts.unseen === 1, 20_000);
    expect(result.current.state.counts).toEqual({ total: 1, unseen: 1, unread: 1 });

    await act(async () => {
      await ada.markSeen([published.notification.id]);
    });
    await eventually(() => result.current.counts.unseen === 0, 20_000);
    expect(result.current.counts).toEqual({ total: 1, unseen: 0, unread: 1 });
    expect(result.current.state.items[0]).toMatchObject({ id: published.notification.id, status: "SEEN" });
    expect(streams).toBe(2);

    unmount();
    expect(views.every((v) => !v.active)).toBe(true);
    ada.close();
  });
});
