// Answers to a client's own actions: delivered once, only for invocations this client made,
// also when the producer's answer arrives before invokeAction's own; effects once per invocation.
import { describe, expect, it } from "vitest";
import { ActionResponses, type ActionResponse, UiEffectsDispatcher } from "../../src/index.ts";
import { notification } from "./fixtures.ts";

const display = {
  __typename: "NotificationDisplay" as const,
  format: "TEXT" as const,
  title: "Done",
  body: "",
  bodyHtml: null,
  variant: "SUCCESS" as const,
  presentation: "MODAL" as const,
  dismissible: true,
};
const settled = (id: string, uiEffects: unknown = null) => ({
  __typename: "ActionInvocation" as const,
  id,
  state: "ACKNOWLEDGED" as const,
  outcomeMessage: "ok",
  display,
  actions: [],
  uiEffects,
});
const pending = (id: string) => ({ ...settled(id), state: "PENDING" as const, outcomeMessage: null, display: null });

function setUp() {
  const effects = new UiEffectsDispatcher();
  const responses = new ActionResponses(effects);
  const heard: ActionResponse[] = [];
  responses.subscribe((r) => void heard.push(r));
  return { effects, responses, heard };
}

describe("ActionResponses", () => {
  it("delivers an awaited invocation's answer once, however often the settled record is seen", () => {
    const { effects, responses, heard } = setUp();
    responses.await("n1", pending("i1"));
    const n = notification({ id: "n1", lastInvocation: settled("i1", { reload_sessions_list: true }) });
    responses.observe(n);
    responses.observe(n); // a snapshot, another view, a replay
    expect(heard).toEqual([
      { invocationId: "i1", notificationId: "n1", state: "ACKNOWLEDGED", message: "ok", display, actions: [], uiEffects: { reload_sessions_list: true } },
    ]);
    expect(effects.pending()).toEqual([{ kind: "sessionsList" }]);
  });

  it("ignores settled invocations this client did not make (another tab's, an earlier page's)", () => {
    const { effects, responses, heard } = setUp();
    responses.observe(notification({ id: "n1", lastInvocation: settled("elsewhere", { reload_sessions_list: true }) }));
    responses.await("n2", pending("mine"));
    expect(heard).toEqual([]);
    expect(effects.pending()).toEqual([]);
  });

  it("matches an answer that arrived before invokeAction returned, and one already settled in its answer", () => {
    const { responses, heard } = setUp();
    responses.observe(notification({ id: "n1", lastInvocation: settled("fast") }));
    responses.await("n1", pending("fast"));
    responses.await("n2", settled("builtin"));
    expect(heard.map((r) => r.invocationId)).toEqual(["fast", "builtin"]);
  });

  it("applies an answer's effects once per invocation through the dispatcher, and never a PENDING one's", () => {
    const effects = new UiEffectsDispatcher();
    effects.observeResponse("i1", { reload_application_actions: true });
    effects.observeResponse("i1", { reload_application_actions: true, reload_sessions_list: true });
    expect(effects.pending()).toEqual([{ kind: "applicationActions" }]);
    const { responses, heard } = setUp();
    responses.await("n1", pending("i2"));
    responses.observe(notification({ id: "n1", lastInvocation: pending("i2") }));
    expect(heard).toEqual([]);
  });
});
