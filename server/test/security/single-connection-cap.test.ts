// graphql-sse single-connection streams (PUT a reservation, GET its stream) under the
// per-credential stream cap, over real HTTP on every storage provider: an opened stream counts
// even while it carries no operation and only heartbeats keep it alive, /metrics counts it
// (herald_open_single_connections), the
// stream past the cap is refused before it opens, and revoking the credential closes idle ones.
import { eventually } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { sample } from "../support/prometheus.ts";
import { providers } from "../support/providers.ts";
import { send } from "./wire.ts";

const TOKEN_HEADER = "x-graphql-event-stream-token";
const metricsToken = "scrape-token-0123456789";
const CAP = 3;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`single-connection streams under the cap on ${provider.name}`, () => {
    let h: TestHerald;
    const streamUrl = () => `${h.url}/stream`;

    beforeAll(async () => {
      h = await startHerald(provider, { maxStreamsPerCredential: CAP, reservationsPerCredential: 10, heartbeatMs: 200, metricsToken });
    });
    afterAll(async () => h?.close());

    const openStreams = async () => {
      const text = await (await fetch(`${h.url.replace(/\/graphql$/, "")}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
      return sample(text, "herald_open_single_connections");
    };

    /** PUT a reservation, then GET its stream; resolves with the open response once its first bytes arrived. */
    const openIdle = async (token: string) => {
      const reserved = await send(streamUrl(), { method: "PUT", token });
      expect(reserved.status).toBe(201);
      const controller = new AbortController();
      const response = await fetch(streamUrl(), {
        headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", [TOKEN_HEADER]: reserved.text },
        signal: controller.signal,
      });
      return { response, controller, reader: response.status === 200 ? response.body!.getReader() : null };
    };

    it("counts idle opened streams against the cap and on /metrics, and refuses the one past it", async () => {
      const ada = await h.newPerson("Ada");
      const before = await openStreams();
      const open = [];
      for (let i = 0; i < CAP; i++) {
        const stream = await openIdle(ada.token);
        expect(stream.response.status).toBe(200);
        await stream.reader!.read(); // the opening comment: the stream is open
        open.push(stream);
      }
      expect(await openStreams()).toBe(before + CAP);
      const refused = await openIdle(ada.token);
      expect(refused.response.status).toBe(429);
      expect((await refused.response.json()).errors[0].message).toMatch(/open streams/);
      // A heartbeat later, the open ones are still there and still counted.
      await open[0]!.reader!.read();
      expect(await openStreams()).toBe(before + CAP);
      // Closing one makes room for another.
      open[0]!.controller.abort();
      await eventually(async () => (await openStreams()) === before + CAP - 1, 10_000, "the closed stream to be released");
      const again = await openIdle(ada.token);
      expect(again.response.status).toBe(200);
      for (const stream of [...open.slice(1), again]) stream.controller.abort();
      await eventually(async () => (await openStreams()) === before, 10_000, "every stream to be released");
    });

    it("closes idle single-connection streams when their credential is revoked", async () => {
      const bob = await h.newPerson("Bob");
      const streams = [await openIdle(bob.token), await openIdle(bob.token)];
      for (const stream of streams) await stream.reader!.read();
      const signedOut = await gql(h.url, bob.token, `mutation { signOut }`);
      expect(signedOut.data.signOut).toBe(true);
      for (const stream of streams) {
        // Heartbeats may come first; the stream must end.
        for (;;) {
          const { done } = await stream.reader!.read();
          if (done) break;
        }
      }
      await eventually(() => h.herald.services.realtime.heldConnections === 0, 10_000, "the closed streams to be released");
    });
  });
}
