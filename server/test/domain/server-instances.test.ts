// Which instances have ended, and whose server-lifetime records a sweep may end, on a fixed clock.
import { describe, expect, it } from "vitest";
import { decidePublish, decideUpdate } from "../../src/domain/lifecycle.ts";
import type { NotificationContent, Target } from "../../src/domain/notification.ts";
import { holderAfter, holderEnded, isStale, staleInstanceIds } from "../../src/domain/server-instances.ts";

const now = new Date("2026-01-01T00:10:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const grace = 60_000;

describe("stale instances", () => {
  it("counts an instance as ended only once its heartbeat is older than the grace", () => {
    expect(isStale(ago(grace), now, grace)).toBe(false);
    expect(isStale(ago(grace + 1), now, grace)).toBe(true);
    // A clock a little behind another instance's: a heartbeat "from the future" is fresh.
    expect(isStale(new Date(now.getTime() + 5_000), now, grace)).toBe(false);
  });

  it("lists the stale instances other than the caller", () => {
    const instances = [
      { id: "fresh", heartbeatAt: ago(15_000) },
      { id: "crashed", heartbeatAt: ago(grace + 1) },
      { id: "self", heartbeatAt: ago(10 * grace) },
    ];
    expect(staleInstanceIds(instances, "self", now, grace)).toEqual(["crashed"]);
  });
});

describe("whose records a sweep ends", () => {
  const fresh = { instanceId: "b", heartbeatAt: ago(1_000) };
  const stale = { instanceId: "b", heartbeatAt: ago(grace + 1) };
  const gone = { instanceId: "b", heartbeatAt: null };
  const legacy = { instanceId: null, heartbeatAt: null };
  const own = { instanceId: "a", heartbeatAt: ago(1_000) };
  const ended = (sweep: "start" | "periodic" | "stop", holder: typeof fresh | typeof gone | typeof legacy) => holderEnded(sweep, holder, "a", now, grace);

  it("never those of an instance that still beats, whatever the sweep", () => {
    expect([ended("start", fresh), ended("periodic", fresh), ended("stop", fresh)]).toEqual([false, false, false]);
  });

  it("those of a stale or gone instance at a start or a periodic sweep, not at the caller's stop", () => {
    expect([ended("start", stale), ended("periodic", stale), ended("stop", stale)]).toEqual([true, true, false]);
    expect([ended("start", gone), ended("periodic", gone), ended("stop", gone)]).toEqual([true, true, false]);
  });

  it("records from before instances were recorded only at a start", () => {
    expect([ended("start", legacy), ended("periodic", legacy), ended("stop", legacy)]).toEqual([true, false, false]);
  });

  it("the caller's own only at its stop", () => {
    expect([ended("start", own), ended("periodic", own), ended("stop", own)]).toEqual([false, false, true]);
  });
});

describe("which instance holds a record", () => {
  const target: Target = { scope: "PERSON", personId: "p1", sessionId: null };
  const content = (policy: "UNTIL_SERVER_RESTART" | "UNTIL_RESOLVED"): NotificationContent => ({
    severity: "INFO",
    title: "Title",
    body: "",
    source: { plugin: "p", subsystem: null },
    displayOverrides: {},
    actions: [],
    operation: null,
    uiEffects: null,
    data: null,
    retention: { policy, expiresAt: null, requestId: null },
    trigger: { type: "PRODUCER", ref: null },
    engagementId: null,
    requestId: null,
  });
  const created = decidePublish(null, target, "k", content("UNTIL_SERVER_RESTART"), now);
  if (created.kind !== "create") throw new Error("expected create");
  const record = { ...created.draft, id: "n1" };

  it("the publishing instance, for a server-lifetime record only", () => {
    expect(holderAfter(created, "a")).toBe("a");
    expect(holderAfter(decidePublish(null, target, "k", content("UNTIL_RESOLVED"), now), "a")).toBeNull();
  });

  it("the revising instance; none once revised into another policy", () => {
    expect(holderAfter(decideUpdate(record, { ...content("UNTIL_SERVER_RESTART"), title: "New" }, now), "b")).toBe("b");
    expect(holderAfter(decideUpdate(record, content("UNTIL_RESOLVED"), now), "b")).toBeNull();
  });

  it("leaves the holder alone when a publish repeats what the record says", () => {
    expect(holderAfter({ kind: "none", current: record }, "b")).toBeUndefined();
  });
});
