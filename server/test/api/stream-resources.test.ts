// Streams give back what they hold: dropped subscriptions release their listeners and
// connections, and a client that stops reading is cut off instead of growing the server's memory.
// What the server's heap does over the same workload is measured by bench:retention, not here.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { eventually } from "../support/sse.ts";
import { storeOf } from "../support/store.ts";

const sqlite = providers[0]!;

describe("stream resources", () => {
  let h: TestHerald;
  let ada: { id: string; token: string };

  beforeAll(async () => {
    // One token opens thousands of streams (250 at a time) here: the per-credential limits are lifted.
    h = await startHerald(sqlite, { maxBufferedBytes: 64 * 1024, heartbeatMs: 60_000, maxStreamsPerCredential: 1_000, rateLimitPoints: 1_000_000 });
    ada = await h.newPerson("Ada");
  });
  afterAll(async () => h?.close());

  const streamUrl = () => h.url.replace(/graphql$/, "graphql/stream");

  async function openAndDrop(count: number, concurrency: number) {
    for (let done = 0; done < count; done += concurrency) {
      const batch = Math.min(concurrency, count - done);
      const controllers = await Promise.all(
        Array.from({ length: batch }, async () => {
          const controller = new AbortController();
          const response = await fetch(streamUrl(), {
            method: "POST",
            headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${ada.token}` },
            body: JSON.stringify({ query: "subscription { notificationEvents { cursor } }" }),
            signal: controller.signal,
          });
          await response.body!.getReader().read(); // the stream is open once its first comment arrives
          return controller;
        }),
      );
      for (const c of controllers) c.abort();
    }
  }

  /** The listener count once it reaches `expected`, or whatever it is after 10 s (for the assertion's message). */
  async function listenersBackTo(expected: number) {
    await eventually(() => h.herald.feed.listenerCount === expected, 10_000).catch(() => undefined);
    return h.herald.feed.listenerCount;
  }

  it("releases every listener and connection of 2,000 dropped subscriptions", { timeout: 300_000 }, async () => {
    await openAndDrop(2_000, 250);
    // Counted, not weighed: one listener or held connection left per dropped subscription is a leak
    // however little memory it holds.
    expect(await listenersBackTo(0)).toBe(0);
    expect(h.herald.services.realtime.heldConnections).toBe(0);
  });

  it("ends a subscription on /graphql whose client accepts no event stream (406)", async () => {
    expect(h.herald.feed.listenerCount).toBe(0);
    const response = await fetch(h.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${ada.token}` },
      body: JSON.stringify({ query: "subscription { notificationEvents { cursor } }" }),
    });
    expect(response.status).toBe(406);
    await response.text();
    expect(await listenersBackTo(0)).toBe(0);
  });

  it("closes the stream of a client that stops reading, past the buffer bound", { timeout: 120_000 }, async () => {
    const port = Number(new URL(h.url).port);
    const socket = connect(port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    const body = JSON.stringify({ query: "subscription { notificationEvents { cursor notification { body } } }" });
    socket.write(
      `POST /graphql/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n` +
        `Authorization: Bearer ${ada.token}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await h.attached(ada.id);
    socket.pause(); // never read again
    expect(h.herald.feed.listenerCount).toBe(1);
    const big = "x".repeat(9_000);
    let published = 0;
    const probe = storeOf(h.herald.database);
    for (; published < 3_000 && h.herald.feed.listenerCount > 0; published++) {
      const sent = await h.herald.services.notifications.publish({
        scope: "PERSON",
        personId: ada.id,
        key: `big-${published}`,
        title: "big",
        body: big,
        source: { plugin: "t" },
      });
      // Let the stream take what was published so far: its delivery mark of the latest (or its end) shows it has.
      if (published % 50 === 0) {
        await eventually(
          async () =>
            h.herald.feed.listenerCount === 0 ||
            (await probe.count("NotificationEvent", (q) => q.where("notificationId", "=", sent.id).where("type", "=", "DELIVERED"))) > 0,
          30_000,
          "the stream to take the latest event, or to end",
        );
      }
    }
    console.log(`[stream resources] slow client cut off after ${published} events of ~9 KB`);
    expect(await listenersBackTo(0)).toBe(0);
    socket.destroy();
  });

  it("drops a reservation whose results pile up before anyone opens its stream, past the buffer bound", { timeout: 120_000 }, async () => {
    const auth = { authorization: `Bearer ${ada.token}` };
    const token = await (await fetch(streamUrl(), { method: "PUT", headers: auth })).text();
    const started = await fetch(`${streamUrl()}?token=${token}`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ query: "subscription { notificationEvents { cursor notification { body } } }", extensions: { operationId: "1" } }),
    });
    expect(started.status).toBe(202);
    await h.attached(ada.id);
    const big = "x".repeat(9_000);
    // 64 KiB may wait: the eighth event of ~9 KB is past it.
    for (let i = 0; i < 8; i++) {
      await h.herald.services.notifications.publish({
        scope: "PERSON",
        personId: ada.id,
        key: `unopened-${i}`,
        title: "big",
        body: big,
        source: { plugin: "t" },
      });
    }
    expect(await listenersBackTo(0)).toBe(0);
    const opened = await fetch(`${streamUrl()}?token=${token}`, { headers: { ...auth, accept: "text/event-stream" } });
    expect(opened.status).toBe(404);
  });
});
