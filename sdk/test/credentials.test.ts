// Credentials and refusals against a real server: a token function is asked again for every
// request and reconnect, a revoked token stops the live view's retries, a refused cursor is typed
// by its HTTP status, and only reads are retried after a request lost on the way or refused for now.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPersonClient,
  createProducerClient,
  HeraldValidationError,
  type NotificationEvent,
  type ProducerClient,
  type ReconnectClock,
  systemClock,
} from "../src/index.ts";
import { eventually, startServer, type TestServer } from "./support/server.ts";

/** The real reconnect timers, keeping count of those still waiting to run. */
function watchedClock() {
  const waiting = new Set<unknown>();
  const clock: ReconnectClock = {
    setTimeout(callback, ms) {
      const handle = systemClock.setTimeout(() => {
        waiting.delete(handle);
        callback();
      }, ms);
      waiting.add(handle);
      return handle;
    },
    clearTimeout(handle) {
      waiting.delete(handle);
      systemClock.clearTimeout(handle);
    },
    random: systemClock.random,
  };
  return { clock, waiting: () => waiting.size };
}

describe("credentials and refusals", () => {
  let server: TestServer;
  let producer: ProducerClient;

  beforeAll(async () => {
    server = await startServer();
    producer = createProducerClient({ url: server.url, token: server.producerKey });
  });
  afterAll(async () => {
    producer?.close();
    await server?.close();
  });

  it("asks a token function for every request and again when the stream reconnects", async () => {
    const person = await server.newPerson("Refresh");
    let calls = 0;
    const client = createPersonClient({
      url: server.url,
      token: async () => {
        calls++;
        return person.token;
      },
    });
    const view = client.live({}, { backoff: { initialMs: 50, maxMs: 200 }, environment: null });
    view.subscribe(() => undefined);
    await eventually(() => view.current.connection === "live", 20_000);
    const afterStart = calls;
    expect(afterStart).toBeGreaterThanOrEqual(3); // cursor, snapshot page, stream

    await server.restart();
    await eventually(() => view.current.connection === "live" && calls > afterStart, 60_000, "the view to reconnect");
    expect(calls).toBeGreaterThan(afterStart);

    // The reconnected stream really carries events.
    const r = await producer.publish({ scope: "PERSON", personId: person.id, key: "after-restart", title: "After restart", source: { plugin: "sdk-test" } });
    expect(r.ok).toBe(true);
    await eventually(() => view.current.items.some((n) => n.key === "after-restart"), 20_000);
    view.close();
    client.close();
  });

  it("stops retrying and reports unauthorized once the token is revoked", async () => {
    const person = await server.newPerson("Revoked");
    const client = createPersonClient({ url: server.url, token: person.token });
    const reconnects = watchedClock();
    const view = client.live({}, { backoff: { initialMs: 20, maxMs: 50 }, clock: reconnects.clock, environment: null });
    view.subscribe(() => undefined);
    await eventually(() => view.current.connection === "live", 20_000);

    // Sign-out revokes the token that sends it, and ends its open streams.
    const other = createPersonClient({ url: server.url, token: person.token });
    expect(await other.signOut()).toBe(true);
    other.close();
    await eventually(() => view.current.connection === "unauthorized", 20_000, "the view to report unauthorized");
    expect(view.current.error).toMatchObject({ code: "UNAUTHENTICATED" });

    // A view knocks again only through a reconnect its clock runs: none waits, so none will come
    // (with the 20-50 ms backoff a retry loop would keep one waiting all the time).
    expect(reconnects.waiting()).toBe(0);
    expect(view.current.connection).toBe("unauthorized");
    view.close();
    client.close();
  });

  it("types a refused cursor by the stream's HTTP status (400), as a validation error", async () => {
    const client = createPersonClient({ url: server.url, token: server.person.token });
    const error = await new Promise<Error>((resolve) => {
      client.events("forged-cursor", {
        next: (_: NotificationEvent) => resolve(new Error("an event arrived")),
        error: resolve,
        complete: () => resolve(new Error("the stream completed")),
      });
    });
    expect(error).toBeInstanceOf(HeraldValidationError);
    expect((error as HeraldValidationError).field).toBe("after");
    client.close();
  });

  it("retries a read whose request was lost on the way, never a mutation", async () => {
    const person = await server.newPerson("Flaky");
    let requests = 0;
    let dropNext = 0;
    const client = createPersonClient({
      url: server.url,
      token: person.token,
      retry: { initialDelayMs: 10, maxDelayMs: 20 },
      fetch: (input, init) => {
        requests++;
        if (dropNext > 0) {
          dropNext--;
          return Promise.reject(new TypeError("fetch failed"));
        }
        return fetch(input, init);
      },
    });
    dropNext = 1;
    expect(await client.counts()).toEqual({ total: 0, unseen: 0, unread: 0 });
    expect(requests).toBe(2);

    requests = 0;
    dropNext = 1;
    await expect(client.setQuietMode(true)).rejects.toMatchObject({ code: "NETWORK" });
    expect(requests).toBe(1);
    // The mutation was not sent, and was not repeated behind the caller's back.
    expect((await client.viewer()).quietMode).toBe(false);
    client.close();
  });

  it("retries a read that a proxy answered 503 and types the last refusal by status; a mutation's 503 is final", async () => {
    const person = await server.newPerson("Proxied");
    let requests = 0;
    let unavailable = 0;
    const client = createPersonClient({
      url: server.url,
      token: person.token,
      retry: { maxAttempts: 3, initialDelayMs: 10, maxDelayMs: 20 },
      fetch: (input, init) => {
        requests++;
        if (unavailable > 0) {
          unavailable--;
          return Promise.resolve(new Response("<html>Service Unavailable</html>", { status: 503, headers: { "content-type": "text/html" } }));
        }
        return fetch(input, init);
      },
    });
    unavailable = 2;
    expect(await client.counts()).toEqual({ total: 0, unseen: 0, unread: 0 });
    expect(requests).toBe(3);

    requests = 0;
    unavailable = 3;
    await expect(client.counts()).rejects.toMatchObject({ code: "NETWORK", status: 503 });
    expect(requests).toBe(3);

    requests = 0;
    unavailable = 1;
    await expect(client.setQuietMode(true)).rejects.toMatchObject({ code: "NETWORK", status: 503 });
    expect(requests).toBe(1);
    expect((await client.viewer()).quietMode).toBe(false);
    client.close();
  });
});
