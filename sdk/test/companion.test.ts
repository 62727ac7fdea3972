// The SDK's companion operations against a real server: emitEvent, observations and quiet mode
// set by a producer and heard live by the person.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HeraldValidationError, type PersonClient, type ProducerClient } from "../src/index.ts";
import { eventually, startClients, type TestClients, type TestServer } from "./support/server.ts";

describe("HeraldClient companion operations", () => {
  let clients: TestClients;
  let server: TestServer;
  let producer: ProducerClient;
  let ada: PersonClient;

  beforeAll(async () => {
    clients = await startClients();
    ({ server, producer, ada } = clients);
  });
  afterAll(async () => clients?.close());

  it("emits events: listeners notify the operator once, a repeated idempotencyKey returns the first result", async () => {
    const engagement = await producer.createEngagement({ name: "Atelier", operatorPersonId: server.person.id });
    const input = { type: "render.produced", engagementId: engagement.id, payload: { id: "sdk-r1", name: "the lobby" }, idempotencyKey: "sdk-1" };
    const first = await producer.emitEvent(input);
    expect(first).toMatchObject({ type: "render.produced", listeners: ["render-ready"], duplicate: false });
    expect(first.notifications.map((n) => [n.title, n.trigger.type, n.trigger.ref])).toEqual([["Your render of the lobby is ready", "EVENT_BASED", "sdk-r1"]]);
    const again = await producer.emitEvent(input);
    expect(again).toMatchObject({ eventId: first.eventId, duplicate: true });
    await expect(producer.emitEvent({ type: "render.produced", engagementId: engagement.id, payload: {} })).rejects.toMatchObject({
      constructor: HeraldValidationError,
      field: "payload.id",
    });
    expect(await producer.emitEvent({ type: "something.else" })).toMatchObject({ listeners: [], notifications: [] });
  });

  it("publishes an observation whose “Remember this” resolves it", async () => {
    const r = await producer.publishObservation({ personId: server.person.id, fact: "Works best before noon", source: { plugin: "sdk" } });
    if (!r.ok) throw new Error(r.message);
    expect(r.notification.actions.map((a) => a.label)).toEqual(["Remember this", "Not now"]);
    await ada.invokeAction(r.notification.id, "remember");
    expect((await ada.get(r.notification.id))?.status).toBe("RESOLVED");
  });

  it("sets a person's quiet mode from a producer, and the person hears every change live", async () => {
    const states: boolean[] = [];
    const stop = ada.preferences({ next: (p) => states.push(p.quietMode), error: () => undefined, complete: () => undefined });
    const until = (n: number) => eventually(() => states.length >= n);
    await until(1);
    expect(await producer.setPersonQuietMode(server.person.id, true)).toBe(true);
    expect(await producer.personQuietMode(server.person.id)).toBe(true);
    await until(2);
    expect(await producer.setPersonQuietMode(server.person.id, false)).toBe(false);
    await until(3);
    stop();
    expect(states).toEqual([false, true, false]);
    expect(await producer.personQuietMode("nobody")).toBeNull();
  });
});
