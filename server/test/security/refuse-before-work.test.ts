// Unauthenticated work is bounded before it starts: oversized bodies (declared or streamed),
// documents with too many tokens and deeply nested literals are refused without parsing, and
// the server keeps answering everyone else. What its heap holds over the refusals, and how long
// another query waits meanwhile, is measured by bench:retention.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { expectRefusal, postJson, send } from "./wire.ts";

const MiB = 1024 * 1024;
const repeatedViewer = (bytes: number) => `{ ${"viewer{id} ".repeat(Math.ceil(bytes / 11))}}`;
const nested = (depth: number) => `{ notifications(first: ${"[".repeat(depth)}1${"]".repeat(depth)}) { edges { cursor } } }`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`refuse before work on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };
    const streamUrl = () => h.url.replace(/graphql$/, "graphql/stream");

    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
    });
    afterAll(async () => h?.close());

    it("refuses multi-MB documents without credentials with a 413, stays up, and keeps answering others", async () => {
      const attacks = Array.from({ length: 12 }, (_, i) => {
        const url = i % 2 === 0 ? h.url : streamUrl();
        const headers: Record<string, string> = i % 2 === 0 ? {} : { accept: "text/event-stream" };
        return postJson(url, { query: repeatedViewer(2.2 * MiB + i) }, { headers });
      });
      const answer = await gql(h.url, ada.token, "{ viewer { id } }");
      for (const refused of await Promise.all(attacks)) expectRefusal(refused, 413, "PAYLOAD_TOO_LARGE");
      // Answered while the attacks were refused. That they are refused before parsing is what the
      // streamed-body and token tests below pin down; parsing one used to hold ~300 MB.
      expect(answer.data).toEqual({ viewer: { id: ada.id } });
    });

    it("counts a body sent without Content-Length as it arrives", async () => {
      const chunk = new TextEncoder().encode(`{"query":"${" ".repeat(64 * 1024)}`);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          // Far more than the limit if nobody stops reading: 64 MiB.
          if (sent++ < 1024) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const response = await send(h.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit);
      expectRefusal(response, 413, "PAYLOAD_TOO_LARGE");
      expect(sent).toBeLessThan(1024);
    });

    it("refuses a document with too many tokens before parsing it", async () => {
      const response = await postJson(h.url, { query: repeatedViewer(100 * 1024) });
      expectRefusal(response, 400, "BAD_REQUEST");
      expect(response.json?.errors?.[0]?.message).toMatch(/tokens/);
    });

    it("answers deeply nested literals with a 400 and a message, on both endpoints", async () => {
      const plain = await postJson(h.url, { query: nested(10_000) }, { token: ada.token });
      expectRefusal(plain, 400, "BAD_REQUEST");
      expect(plain.json?.errors?.[0]?.message).toMatch(/nests/);
      const stream = await postJson(streamUrl(), { query: nested(10_000) }, { token: ada.token, headers: { accept: "text/event-stream" } });
      expectRefusal(stream, 400, "BAD_REQUEST");
      // Within the bounds, nesting is an ordinary validation matter, still no 500.
      const shallow = await postJson(h.url, { query: nested(40) }, { token: ada.token });
      expect(shallow.status).toBeLessThan(500);
      expect((await gql(h.url, ada.token, "{ viewer { id } }")).data).toEqual({ viewer: { id: ada.id } });
    });
  });
}
