// A local stand-in for an OpenAI-compatible chat-completions endpoint (the API Pi's
// "openai-completions" providers, opencode's @ai-sdk/openai-compatible providers and Herald's own
// labeler speak). It answers `POST .../chat/completions` as the real API does: a JSON
// `chat.completion`, or with `stream: true` server-sent `chat.completion.chunk` events ending in
// `data: [DONE]`. The test decides each answer; every request is recorded.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatMessage {
  role: string;
  content: unknown;
}

export interface ChatRequest {
  path: string;
  model: string;
  stream: boolean;
  messages: ChatMessage[];
  body: Record<string, unknown>;
}

/** What the fake answers: text, a call of one of the request's tools, or an HTTP error with the API's error body. */
export type ChatReply =
  { text: string } | { toolCall: { name: string; arguments: Record<string, unknown> } } | { status: number; message: string; type?: string };

export interface FakeOpenAIChat {
  /** The API base, e.g. http://127.0.0.1:4567/v1 (what a provider's `baseUrl` takes). */
  baseUrl: string;
  readonly requests: ChatRequest[];
  close(): Promise<void>;
}

/** The text of a message whose content is a string or an array of content parts. */
export function messageText(message: ChatMessage | undefined): string {
  if (!message) return "";
  if (typeof message.content === "string") return message.content;
  if (Array.isArray(message.content)) {
    return message.content
      .map((part) => (part && typeof part === "object" && (part as { type?: unknown }).type === "text" ? String((part as { text?: unknown }).text ?? "") : ""))
      .join("");
  }
  return "";
}

/** The last message of a role in a request (e.g. the user's prompt). */
export function lastMessage(request: ChatRequest, role: string): ChatMessage | undefined {
  return request.messages.filter((m) => m.role === role).at(-1);
}

export async function startFakeOpenAIChat(reply: (request: ChatRequest) => ChatReply | Promise<ChatReply>): Promise<FakeOpenAIChat> {
  const requests: ChatRequest[] = [];
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(error), type: "server_error" } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    if (req.method === "GET" && path.endsWith("/models")) {
      return json(res, 200, { object: "list", data: [{ id: "fake-model", object: "model", created: 0, owned_by: "herald-tests" }] });
    }
    if (req.method !== "POST" || !path.endsWith("/chat/completions")) {
      return json(res, 404, { error: { message: `no route ${req.method} ${path}`, type: "invalid_request_error" } });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    const request: ChatRequest = {
      path,
      model: String(body.model ?? ""),
      stream: body.stream === true,
      messages: Array.isArray(body.messages) ? (body.messages as ChatMessage[]) : [],
      body,
    };
    requests.push(request);
    const answer = await reply(request);
    if ("status" in answer) {
      return json(res, answer.status, { error: { message: answer.message, type: answer.type ?? "server_error", code: null } });
    }
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 };
    const call =
      "toolCall" in answer
        ? {
            id: `call_${randomUUID().slice(0, 8)}`,
            type: "function",
            function: { name: answer.toolCall.name, arguments: JSON.stringify(answer.toolCall.arguments) },
          }
        : null;
    const finish = call ? "tool_calls" : "stop";
    if (!request.stream) {
      const message = call ? { role: "assistant", content: null, tool_calls: [call] } : { role: "assistant", content: (answer as { text: string }).text };
      return json(res, 200, {
        id,
        object: "chat.completion",
        created,
        model: request.model,
        choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
        usage,
      });
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
      id,
      object: "chat.completion.chunk",
      created,
      model: request.model,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    });
    send(chunk({ role: "assistant", content: "" }, null));
    if (call) {
      // The call's name first, then its arguments in pieces, as the API streams them.
      send(chunk({ tool_calls: [{ index: 0, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }, null));
      for (const piece of call.function.arguments.match(/.{1,16}/gs) ?? []) send(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }, null));
    } else {
      // A few pieces, as a model streams tokens.
      for (const piece of (answer as { text: string }).text.match(/\S+\s*|\s+/g) ?? []) send(chunk({ content: piece }, null));
    }
    send(chunk({}, finish));
    const options = body.stream_options as { include_usage?: boolean } | undefined;
    if (options?.include_usage) send({ id, object: "chat.completion.chunk", created, model: request.model, choices: [], usage });
    res.end("data: [DONE]\n\n");
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
