// onActionInvocation against a real server process: it resumes behind the last invocation it
// handled after the server restarts, and from a stored cursor in a new process's subscription;
// acknowledgeActionInvocation settles an invocation and the person sees the state.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ActionInvocation,
  type ActionResponse,
  createPersonClient,
  HeraldNotFoundError,
  HeraldValidationError,
  type PersonClient,
  type ProducerClient,
} from "../src/index.ts";
import { eventually, startClients, type TestClients, type TestServer, untilMarker } from "./support/server.ts";

describe("HeraldClient action invocations", () => {
  let clients: TestClients;
  let server: TestServer;
  let producer: ProducerClient;
  let ada: PersonClient;

  beforeAll(async () => {
    clients = await startClients();
    ({ server, producer, ada } = clients);
  });
  afterAll(async () => clients?.close());

  const publishRetry = async (plugin: string) => {
    const r = await producer.publish({
      scope: "PERSON",
      personId: server.person.id,
      key: `retry-${plugin}`,
      title: "Export failed",
      source: { plugin },
      actions: [{ kind: "RUN_ACTION", id: "retry", label: "Retry", actionId: "export.retry" }],
    });
    if (!r.ok) throw new Error(r.message);
    return r.notification;
  };

  it("resumes after the server restarts, without losing or repeating an invocation", async () => {
    const n = await publishRetry("resume");
    const got: ActionInvocation[] = [];
    const cursors: string[] = [];
    const errors: Error[] = [];
    const stop = producer.onActionInvocation((i) => void got.push(i), {
      plugin: "resume",
      onCursor: (c) => cursors.push(c),
      onError: (e) => errors.push(e),
      backoff: { initialMs: 100, maxMs: 500 },
    });
    const first = await ada.invokeAction(n.id, "retry");
    await eventually(() => got.length === 1);
    await server.restart();
    // Invoked after the restart, before the subscription is back: it must still arrive, once.
    const second = await ada.invokeAction(n.id, "retry");
    await eventually(() => got.length >= 2, 20_000);
    const third = await ada.invokeAction(n.id, "retry");
    // Invocations arrive in order: a repeat (of any of the three) would come before a fourth.
    const [beforeFourth] = await untilMarker(
      [() => got],
      () => ada.invokeAction(n.id, "retry"),
      (i, fourth) => i.id === fourth.id,
    );
    stop();
    expect(beforeFourth!.map((i) => i.id)).toEqual([first.id, second.id, third.id]);
    expect(cursors).toEqual(got.map((i) => i.cursor));
    expect(errors.length).toBeGreaterThan(0); // the drop was reported, not swallowed

    // A new subscription from a stored cursor (the third's) receives only what came after it: the
    // fourth, then a fifth invoked as a marker, and nothing of what came before.
    const fourth = got[beforeFourth!.length]!;
    const later: ActionInvocation[] = [];
    const stopLater = producer.onActionInvocation((i) => void later.push(i), { plugin: "resume", after: beforeFourth!.at(-1)!.cursor });
    await eventually(() => later.length >= 1);
    const [beforeFifth] = await untilMarker(
      [() => later],
      () => ada.invokeAction(n.id, "retry"),
      (i, fifth) => i.id === fifth.id,
    );
    stopLater();
    expect(beforeFifth!.map((i) => i.id)).toEqual([fourth.id]);
  });

  it("acknowledges an invocation, and the person reads the outcome on the notification", async () => {
    const n = await publishRetry("acks");
    const invocation = await ada.invokeAction(n.id, "retry");
    expect(invocation.state).toBe("PENDING");
    const page = await producer.actionInvocations({ plugin: "acks" });
    expect(page.items.map((i) => i.id)).toEqual([invocation.id]);
    const acked = await producer.acknowledgeActionInvocation(invocation.id, "ACKNOWLEDGED", "Export restarted");
    expect(acked).toMatchObject({ id: invocation.id, state: "ACKNOWLEDGED", outcomeMessage: "Export restarted" });
    expect((await ada.get(n.id))?.lastInvocation).toMatchObject({ id: invocation.id, state: "ACKNOWLEDGED", outcomeMessage: "Export restarted" });
    await expect(producer.acknowledgeActionInvocation(invocation.id, "FAILED")).rejects.toBeInstanceOf(HeraldValidationError);
    await expect(producer.acknowledgeActionInvocation("no-such-id")).rejects.toBeInstanceOf(HeraldNotFoundError);
  });

  it("delivers a producer's answer with its display and effects once, to the client that ran the action only", async () => {
    const n = await publishRetry("answers");
    // Another tab of the same person: it sees the notification change, but it ran nothing.
    const other = createPersonClient({ url: server.url, token: server.person.token });
    const views = [ada.live({ plugins: ["answers"] }, { environment: null }), other.live({ plugins: ["answers"] }, { environment: null })];
    const states = views.map(() => ({ live: false }));
    const stops = views.map((view, i) => view.subscribe((s) => (states[i]!.live ||= s.connection === "live")));
    await eventually(() => states.every((s) => s.live));
    const heard: ActionResponse[][] = [[], []];
    const reloads: number[] = [0, 0];
    const unhear = [ada, other].map((client, i) => client.actionResponses.subscribe((r) => void heard[i]!.push(r)));
    const unmount = [ada, other].map((client, i) => client.uiEffects.mount({ kind: "sessionsList" }, () => void reloads[i]!++));

    const invocation = await ada.invokeAction(n.id, "retry");
    const display = { format: "MARKDOWN" as const, title: "Export restarted", body: "**3** files queued" };
    await expect(
      producer.acknowledgeActionInvocation(invocation.id, "ACKNOWLEDGED", { display: { ...display, body: "x".repeat(10_001) } }),
    ).rejects.toMatchObject({
      field: "display.body",
    });
    await producer.acknowledgeActionInvocation(invocation.id, "ACKNOWLEDGED", { message: "ok", display, uiEffects: { reload_sessions_list: true } });
    await eventually(() => heard[0]!.length === 1 && views.every((v) => v.current.items[0]?.lastInvocation?.state === "ACKNOWLEDGED"));
    expect(heard[0]![0]).toEqual({
      invocationId: invocation.id,
      notificationId: n.id,
      state: "ACKNOWLEDGED",
      message: "ok",
      display: { ...display, bodyHtml: "<p><strong>3</strong> files queued</p>\n", variant: "INFO", presentation: "MODAL", dismissible: true },
      // The display offers no follow-ups of its own.
      actions: [],
      uiEffects: { reload_sessions_list: true },
    });
    expect(reloads).toEqual([1, 0]);

    // Seeing the settled invocation again (a snapshot, another view) delivers nothing twice.
    await views[0]!.refresh();
    const again = ada.live({ plugins: ["answers"] }, { environment: null });
    const stopAgain = again.subscribe(() => undefined);
    await eventually(() => again.current.connection === "live");
    expect(heard).toEqual([[heard[0]![0]], []]);
    expect(reloads).toEqual([1, 0]);
    for (const stop of [...stops, ...unhear, ...unmount, stopAgain]) stop();
    for (const view of [...views, again]) view.close();
    other.close();
  });
});
