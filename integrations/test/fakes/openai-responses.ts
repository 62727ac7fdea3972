// A local stand-in for OpenAI's Responses API (POST /v1/responses), the one part of a Codex run
// that cannot exist here. Every request is answered with the configured text as one assistant
// message, streamed as the real API streams it (response.created, response.output_item.added,
// response.content_part.added, response.output_text.delta, response.output_text.done,
// response.content_part.done, response.output_item.done, response.completed as named SSE events),
// or as one JSON response when no stream is asked for. A model listing is answered too. Every
// request is kept so a test can see what the harness sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ResponsesRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: { model?: string; stream?: boolean; input?: unknown; [key: string]: unknown };
}

export interface FakeResponses {
  /** The base URL to configure, ending in /v1, e.g. http://127.0.0.1:4321/v1. */
  url: string;
  requests: ResponsesRequest[];
  reply: (request: ResponsesRequest) => string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

export async function startFakeResponses(reply: (request: ResponsesRequest) => string = () => "Done."): Promise<FakeResponses> {
  let counter = 0;
  const fake: FakeResponses = { url: "", requests: [], reply, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0]!;
      let body: ResponsesRequest["body"] = {};
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString("utf8")) as ResponsesRequest["body"]) : {};
      } catch {
        return json(res, 400, { error: { type: "invalid_request_error", message: "body is not JSON" } });
      }
      const request: ResponsesRequest = { method: req.method ?? "GET", path, headers: req.headers, body };
      fake.requests.push(request);
      if (req.method === "GET" && path === "/v1/models") {
        return json(res, 200, { object: "list", data: [{ id: "fake-model", object: "model", created: 0, owned_by: "herald-tests" }] });
      }
      if (req.method !== "POST" || path !== "/v1/responses") return json(res, 404, { error: { type: "not_found", message: `no route ${req.method} ${path}` } });

      const n = ++counter;
      const text = fake.reply(request);
      const responseId = `resp_fake_${n}`;
      const itemId = `msg_fake_${n}`;
      const model = body.model ?? "fake-model";
      const usage = {
        input_tokens: 12,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 9,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 21,
      };
      const part = { type: "output_text", text, annotations: [] };
      const item = { id: itemId, type: "message", status: "completed", role: "assistant", content: [part] };
      const response = (status: string, output: unknown[]) => ({
        id: responseId,
        object: "response",
        created_at: Math.floor(Date.now() / 1000),
        status,
        model,
        output,
        usage: status === "completed" ? usage : null,
      });
      if (!body.stream) return json(res, 200, response("completed", [item]));

      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
      let sequence = 0;
      const send = (type: string, data: Record<string, unknown>) =>
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
      send("response.created", { response: response("in_progress", []) });
      send("response.in_progress", { response: response("in_progress", []) });
      send("response.output_item.added", { output_index: 0, item: { ...item, status: "in_progress", content: [] } });
      send("response.content_part.added", { item_id: itemId, output_index: 0, content_index: 0, part: { ...part, text: "" } });
      const half = Math.ceil(text.length / 2);
      for (const delta of [text.slice(0, half), text.slice(half)]) {
        if (delta) send("response.output_text.delta", { item_id: itemId, output_index: 0, content_index: 0, delta });
      }
      send("response.output_text.done", { item_id: itemId, output_index: 0, content_index: 0, text });
      send("response.content_part.done", { item_id: itemId, output_index: 0, content_index: 0, part });
      send("response.output_item.done", { output_index: 0, item });
      send("response.completed", { response: response("completed", [item]) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
