// UI effects: once per (connection, id, revision), never for terminal revisions, unknown fields
// ignored, and each invalidation pending until one consumer's reload succeeds.
import { describe, expect, it } from "vitest";
import { type Invalidation, UiEffectsDispatcher } from "../../src/index.ts";
import { notification } from "./fixtures.ts";

// One macrotask turn, not a clock wait: it only lets the promise callbacks already queued run.
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("UiEffectsDispatcher", () => {
  it("turns known fields into invalidations and ignores unknown or malformed ones", () => {
    const ui = new UiEffectsDispatcher();
    ui.observe(
      notification({
        uiEffects: { reload_session_ids: ["s1", "", 7, "s2"], reload_sessions_list: true, reload_application_actions: "yes", open_window: true },
      }),
    );
    ui.observe(notification({ uiEffects: ["reload_sessions_list"] }));
    ui.observe(notification({ uiEffects: "reload" }));
    expect(ui.pending()).toEqual([{ kind: "session", sessionId: "s1" }, { kind: "session", sessionId: "s2" }, { kind: "sessionsList" }]);
  });

  it("applies a revision once, and a later revision's own effects again", async () => {
    const ui = new UiEffectsDispatcher();
    const reloads: Invalidation[] = [];
    ui.mount({ kind: "sessionsList" }, (i) => void reloads.push(i));
    const n = notification({ revision: 1, uiEffects: { reload_sessions_list: true } });
    ui.observe(n);
    await flush();
    ui.observe(n); // the same revision again (a replay after reconnect, a snapshot)
    await flush();
    expect(reloads).toHaveLength(1);
    ui.observe({ ...n, revision: 2 });
    await flush();
    expect(reloads).toHaveLength(2);
  });

  it("never applies a terminal revision's effects", async () => {
    const ui = new UiEffectsDispatcher();
    ui.observe(notification({ status: "RESOLVED", uiEffects: { reload_sessions_list: true } }));
    ui.observe(notification({ status: "DISMISSED", uiEffects: { reload_application_actions: true } }));
    expect(ui.pending()).toEqual([]);
  });

  it("keeps an invalidation pending until a consumer mounts and reloads successfully", async () => {
    const ui = new UiEffectsDispatcher();
    ui.observe(notification({ uiEffects: { reload_session_ids: ["s1"] } }));
    expect(ui.pending()).toEqual([{ kind: "session", sessionId: "s1" }]);

    // A consumer of another session is not asked.
    const other: Invalidation[] = [];
    ui.mount({ kind: "session", sessionId: "s2" }, (i) => void other.push(i));
    await flush();
    expect(other).toEqual([]);

    const failing = ui.mount({ kind: "session", sessionId: "s1" }, () => Promise.reject(new Error("offline")));
    await flush();
    expect(ui.pending()).toHaveLength(1);
    failing();

    const received: Invalidation[] = [];
    ui.mount({ kind: "session", sessionId: "s1" }, (i) => void received.push(i));
    await flush();
    expect(received).toEqual([{ kind: "session", sessionId: "s1" }]);
    expect(ui.pending()).toEqual([]);
  });
});
