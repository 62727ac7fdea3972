// A local stand-in for Anthropic's Messages API (POST /v1/messages), the one part of a Claude Code
// run that cannot exist here. It answers each request with what the test's `reply` says: a text,
// or a tool call (so the harness runs a tool or a sub-agent), streamed as the real API streams
// (message_start, content_block_start/delta/stop, message_delta, message_stop as named SSE
// events; a tool's input as input_json_delta) or as one JSON message when no stream is asked for. Token
// counting is answered too, since the harness may ask before a turn. Every request is kept so a
// test can see what the harness sent.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface AnthropicRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: { model?: string; stream?: boolean; messages?: unknown[]; system?: unknown; [key: string]: unknown };
}

/** A text answer, or a call of one of the harness's tools. */
export type AnthropicReply = string | { toolUse: { name: string; input: Record<string, unknown> } };

export interface FakeAnthropic {
  /** The base URL for ANTHROPIC_BASE_URL, e.g. http://127.0.0.1:4321. */
  url: string;
  requests: AnthropicRequest[];
  /** Each request is answered with `reply(request)`. */
  reply: (request: AnthropicRequest) => AnthropicReply;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

export async function startFakeAnthropic(reply: (request: AnthropicRequest) => AnthropicReply = () => "Done."): Promise<FakeAnthropic> {
  let counter = 0;
  const fake: FakeAnthropic = { url: "", requests: [], reply, close: async () => undefined };
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
      let body: AnthropicRequest["body"] = {};
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString("utf8")) as AnthropicRequest["body"]) : {};
      } catch {
        return json(res, 400, { type: "error", error: { type: "invalid_request_error", message: "body is not JSON" } });
      }
      const request: AnthropicRequest = { path, headers: req.headers, body };
      fake.requests.push(request);
      if (req.method === "POST" && path === "/v1/messages/count_tokens") return json(res, 200, { input_tokens: 42 });
      if (req.method !== "POST" || path !== "/v1/messages") {
        return json(res, 404, { type: "error", error: { type: "not_found_error", message: `no route ${req.method} ${path}` } });
      }
      const id = `msg_fake_${++counter}`;
      const answer = fake.reply(request);
      const block =
        typeof answer === "string"
          ? { type: "text", text: answer }
          : { type: "tool_use", id: `toolu_fake_${counter}`, name: answer.toolUse.name, input: answer.toolUse.input };
      const stopReason = block.type === "tool_use" ? "tool_use" : "end_turn";
      const model = body.model ?? "claude-fake";
      const usage = { input_tokens: 12, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      if (!body.stream) {
        return json(res, 200, { id, type: "message", role: "assistant", model, content: [block], stop_reason: stopReason, stop_sequence: null, usage });
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", "request-id": `req_${id}` });
      const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      send("message_start", {
        type: "message_start",
        message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
      });
      send("ping", { type: "ping" });
      // Streamed in two parts, as the real API splits an answer.
      const halves = (whole: string) => [whole.slice(0, Math.ceil(whole.length / 2)), whole.slice(Math.ceil(whole.length / 2))].filter(Boolean);
      if (block.type === "text") {
        send("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
        for (const part of halves(block.text as string))
          send("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: part } });
      } else {
        send("content_block_start", { type: "content_block_start", index: 0, content_block: { ...block, input: {} } });
        for (const part of halves(JSON.stringify(block.input)))
          send("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: part } });
      }
      send("content_block_stop", { type: "content_block_stop", index: 0 });
      send("message_delta", { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
      send("message_stop", { type: "message_stop" });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

function json(res: import("node:http").ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
