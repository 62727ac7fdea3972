// Labelers: the built-in one, and the OpenAI-compatible one against a local fake endpoint.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundedMaterial, normalizeLabel } from "../../src/domain/session-labels.ts";
import { BuiltinLabeler, OpenAILabeler } from "../../src/service/labelers/index.ts";
import type { LabelRequest } from "../../src/service/labelers/labeler.ts";

const request: LabelRequest = {
  harness: "pi",
  currentLabel: "Old Session Label",
  project: "herald",
  material: boundedMaterial("Please fix the login redirect loop in the dashboard", "I fixed the redirect by checking the session cookie."),
};

describe("built-in labeler", () => {
  const labeler = new BuiltinLabeler();

  it("draws a valid 3-4 word label from the material, the same every time", async () => {
    const first = await labeler.label(request);
    expect(first).toEqual({ kind: "label", text: "Fix Login Redirect Loop" });
    expect(await labeler.label(request)).toEqual(first);
  });

  it("stays within 60 UTF-8 bytes and fails when the material has too few words", async () => {
    // Each accented word is 30 bytes: a second one would pass 60, so shorter words fill the label.
    const long = await labeler.label({ ...request, material: boundedMaterial("ééééééééééééééé ààààààààààààààà ùùùùùùùùùùùùùùù red green blue", "") });
    expect(long).toEqual({ kind: "label", text: "Ééééééééééééééé Red Green Blue" });
    expect(normalizeLabel((long as { text: string }).text)).not.toBeNull();
    await expect(labeler.label({ ...request, material: boundedMaterial("hi", "ok") })).rejects.toThrow(/too few/);
  });
});

describe("OpenAI-compatible labeler", () => {
  let server: Server;
  let base: string;
  let reply: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  const seen: { headers: IncomingMessage["headers"]; body: any }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen.push({ headers: req.headers, body: JSON.parse(body) });
        reply(req, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const answering =
    (content: unknown, status = 200) =>
    (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(typeof content === "string" && status !== 200 ? content : JSON.stringify({ choices: [{ message: { role: "assistant", content } }] }));
    };
  const labeler = (timeoutMs = 2_000) => new OpenAILabeler({ url: base, model: "tiny", key: "sk-test", timeoutMs });

  it("asks the chat-completions endpoint with the model, key and bounded material, and returns the label", async () => {
    reply = answering('"Fix Login Redirect."');
    expect(await labeler().label(request)).toEqual({ kind: "label", text: "Fix Login Redirect" });
    const call = seen.at(-1)!;
    expect(call.headers.authorization).toBe("Bearer sk-test");
    expect(call.body.model).toBe("tiny");
    expect(call.body.messages[1].content).toContain("Current label: Old Session Label");
    expect(call.body.messages[1].content).toContain("login redirect loop");
  });

  it("understands KEEP", async () => {
    reply = answering("KEEP");
    expect(await labeler().label(request)).toEqual({ kind: "keep" });
  });

  it("passes garbage on as text the domain then refuses, and fails on a malformed response", async () => {
    reply = answering("Sure! Here is a great label for your session: Login Fixes");
    const answer = await labeler().label(request);
    expect(answer.kind === "label" && normalizeLabel(answer.text)).toBeNull();
    reply = (_req, res) => res.end("<html>not json</html>");
    await expect(labeler().label(request)).rejects.toThrow(/not JSON/);
    reply = (_req, res) => res.end(JSON.stringify({ choices: [] }));
    await expect(labeler().label(request)).rejects.toThrow(/no choices/);
    reply = (_req, res) => res.end(JSON.stringify({ pad: "x".repeat(70_000) }));
    await expect(labeler().label(request)).rejects.toThrow(/exceeds/);
  });

  it("fails on a server error", async () => {
    reply = answering("upstream broke", 500);
    await expect(labeler().label(request)).rejects.toThrow(/HTTP 500/);
  });

  it("gives up at its timeout when the endpoint never answers", async () => {
    // Holds the request open; the endpoint sees it closed when the labeler gives up.
    let closed!: Promise<void>;
    reply = (_req, res) => void (closed = new Promise((resolve) => res.once("close", () => resolve())));
    await expect(labeler(300).label(request)).rejects.toThrow(/timeout|aborted/i);
    // Given up by closing the request, not by leaving it to hang: the endpoint's side ends too.
    await closed;
  });
});
