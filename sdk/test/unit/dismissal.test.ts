// Exact-revision dismissal with hide-and-retry, against a scripted send function.
import { describe, expect, it } from "vitest";
import { DismissalCache, type DismissResult } from "../../src/index.ts";
import { notification } from "./fixtures.ts";

/** A send whose answers the test releases one at a time. */
function scriptedSend() {
  const calls: { id: string; revision: number; settle: (answer: DismissResult | Error) => void }[] = [];
  const send = (n: { id: string; revision: number }) =>
    new Promise<DismissResult>((resolve, reject) => {
      calls.push({ id: n.id, revision: n.revision, settle: (answer) => (answer instanceof Error ? reject(answer) : resolve(answer)) });
    });
  return { calls, send };
}

// One macrotask turn, not a clock wait: it only lets the promise callbacks already queued run.
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("DismissalCache", () => {
  it("hides the exact revision at once and keeps it hidden after the server confirms", async () => {
    const { calls, send } = scriptedSend();
    const cache = new DismissalCache(send);
    const changes: number[] = [];
    cache.onChange(() => changes.push(cache.size));
    const n = notification({ revision: 3 });
    const pending = cache.dismiss(n);
    expect(cache.isHidden(n)).toBe(true);
    expect(cache.isHidden({ id: n.id, revision: 4 })).toBe(false);
    calls[0]!.settle({ ok: true, notification: { ...n, status: "DISMISSED", revision: 4 } });
    expect((await pending).ok).toBe(true);
    expect(cache.isHidden(n)).toBe(true);
    expect(changes.length).toBeGreaterThanOrEqual(2);
  });

  it("shows the record again when the server refuses (a newer revision exists)", async () => {
    const { calls, send } = scriptedSend();
    const cache = new DismissalCache(send);
    const n = notification({ revision: 1 });
    const pending = cache.dismiss(n);
    calls[0]!.settle({ ok: false, reason: "conflict", message: "changed", current: { ...n, revision: 2 } });
    expect(await pending).toMatchObject({ ok: false, reason: "conflict" });
    expect(cache.isHidden(n)).toBe(false);
    expect(cache.size).toBe(0);
  });

  it("keeps a failed dismissal hidden and sends it again, with the same revision, when the record is observed", async () => {
    const { calls, send } = scriptedSend();
    const cache = new DismissalCache(send);
    const n = notification({ revision: 5 });
    const pending = cache.dismiss(n);
    calls[0]!.settle(new Error("offline"));
    expect(await pending).toMatchObject({ ok: false, reason: "pending" });
    expect(cache.isHidden(n)).toBe(true);

    cache.observe(n);
    await flush();
    expect(calls.map((c) => [c.id, c.revision])).toEqual([
      [n.id, 5],
      [n.id, 5],
    ]);
    // While that retry is in flight, observing again sends nothing more.
    cache.observe(n);
    expect(calls).toHaveLength(2);
  });

  it("retries every failed dismissal after a reconnect, and none that is in flight or confirmed", async () => {
    const { calls, send } = scriptedSend();
    const cache = new DismissalCache(send);
    const failed = notification({ revision: 1 });
    const confirmed = notification({ revision: 1 });
    const f = cache.dismiss(failed);
    const c = cache.dismiss(confirmed);
    calls[0]!.settle(new Error("offline"));
    calls[1]!.settle({ ok: true, notification: confirmed });
    await Promise.all([f, c]);
    cache.retryFailed();
    await flush();
    expect(calls.slice(2).map((call) => call.id)).toEqual([failed.id]);
  });

  it("never carries a dismissal over to a newer revision: observing one drops the entry", async () => {
    const { calls, send } = scriptedSend();
    const cache = new DismissalCache(send);
    const n = notification({ revision: 1 });
    const pending = cache.dismiss(n);
    calls[0]!.settle(new Error("offline"));
    await pending;
    cache.observe({ id: n.id, revision: 2 });
    expect(cache.size).toBe(0);
    expect(cache.isHidden({ id: n.id, revision: 2 })).toBe(false);
    cache.retryFailed();
    expect(calls).toHaveLength(1);
  });
});
