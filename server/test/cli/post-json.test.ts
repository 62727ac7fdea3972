// The short-lived commands' one POST (post-json.ts) against a real HTTP server: the whole answer,
// a request cut short by its signal, an answer too large to read; and the hook path never touching
// the global fetch (its HTTP client is the start-up cost the hook avoids).
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createTempDir } from "@herald/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_ANSWER_BYTES, PostFailure, postJson } from "../../src/cli/post-json.ts";
import { heraldRaw } from "../support/processes.ts";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  if (server?.listening) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<URL> {
  server = createServer(handler);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`);
}

describe("postJson", () => {
  it("sends the body with its length and headers, and reads the whole answer", async () => {
    let received = "";
    const url = await listen((request, response) => {
      request.on("data", (c: Buffer) => (received += c.toString()));
      request.on("end", () => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ echoed: request.headers.authorization, length: request.headers["content-length"] }));
      });
    });
    const body = JSON.stringify({ query: "{ x }", variables: { text: "naïve ✓" } });
    const answer = await postJson(url, { authorization: "Bearer k" }, body, AbortSignal.timeout(10_000));
    expect(received).toBe(body);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ echoed: "Bearer k", length: String(Buffer.byteLength(body)) });
  });

  it("ends a request the server never answers when its signal aborts", async () => {
    let arrived!: () => void;
    const seen = new Promise<void>((resolve) => (arrived = resolve));
    const url = await listen(() => arrived());
    const controller = new AbortController();
    const asked = postJson(url, {}, "{}", controller.signal);
    await seen;
    controller.abort();
    await expect(asked).rejects.toMatchObject({ code: "ABORTED" });
  });

  it("refuses an answer over the limit instead of reading it all", async () => {
    const url = await listen((_request, response) => {
      response.writeHead(200);
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      // Twice the limit, unless the client hangs up first.
      for (let sent = 0; sent <= MAX_ANSWER_BYTES * 2 && !response.destroyed; sent += chunk.length) response.write(chunk);
      response.end();
    });
    const failure = await postJson(url, {}, "{}", AbortSignal.timeout(30_000)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PostFailure);
    expect((failure as PostFailure).code).toBe("TOO_LARGE");
  });

  it("names the socket's error when nothing listens", async () => {
    const url = await listen(() => undefined);
    server!.close();
    await once(server!, "close");
    await expect(postJson(url, {}, "{}", AbortSignal.timeout(10_000))).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});

describe("the hook's requests", () => {
  it("go out without the global fetch", async () => {
    let requests = 0;
    const url = await listen((_request, response) => {
      requests++;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ data: { reportExchange: { __typename: "ExchangeReport", session: { id: "s", label: null } } } }));
    });
    // A preloaded module replaces fetch with one that says it was called.
    const dir = createTempDir("herald-fetch-trap-");
    const trap = join(dir.path, "trap.mjs");
    writeFileSync(trap, `globalThis.fetch = () => { process.stderr.write("FETCH CALLED\\n"); return Promise.reject(new Error("trapped")); };\n`);
    const payload = JSON.stringify({
      type: "agent-turn-complete",
      "thread-id": "t1",
      "turn-id": "u1",
      cwd: "/tmp/p",
      "input-messages": ["Fix it"],
      "last-assistant-message": "Fixed.",
    });
    const run = await heraldRaw(["hook", "codex", payload], {
      NODE_OPTIONS: `--import=${trap}`,
      HERALD_URL: url.origin,
      HERALD_PRODUCER_KEY: "k",
      HERALD_PERSON_ID: "p",
    });
    expect(run.code).toBe(0);
    expect(run.stderr.toString()).not.toContain("FETCH CALLED");
    expect(requests).toBeGreaterThan(0);
    dir.remove();
  });
});
