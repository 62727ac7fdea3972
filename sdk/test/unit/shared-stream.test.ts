// Where tabs cannot share a stream (no Web Locks, BroadcastChannel or SubtleCrypto: Node, old
// browsers) a shared view keeps its own stream. The sharing itself runs in Chromium
// (app/test/shared-stream.test.ts).
import { describe, expect, it } from "vitest";
import { type EventSource, sharedEvents } from "../../src/shared-stream.ts";

const own: EventSource = () => () => undefined;

describe("sharedEvents", () => {
  it("is the view's own stream in Node", () => {
    expect(sharedEvents(own, { key: "person-1" })).toBe(own);
  });

  it("is the view's own stream when the browser lacks Web Locks", () => {
    expect(sharedEvents(own, { key: "person-1" }, { BroadcastChannel, crypto: globalThis.crypto, navigator: {} })).toBe(own);
  });

  it("wraps the stream when the browser has all it needs", () => {
    const locks = { request: () => new Promise<unknown>(() => undefined) };
    expect(sharedEvents(own, { key: "person-1" }, { BroadcastChannel, crypto: globalThis.crypto, navigator: { locks } })).not.toBe(own);
  });
});
