// A light SSE reader for tests that hold thousands of streams: node:http without an agent (one
// socket per stream, nothing pooled), the body read as text and cut into SSE messages. The stock
// graphql-sse client costs far more per stream and hides the wire format; this keeps both cheap
// and visible. It speaks the three ways a subscription reaches Herald: graphql-sse's distinct
// connections on /graphql/stream, its single-connection mode there (reservation, one stream,
// operations tagged with an id) and Yoga's SSE on /graphql.
import { request, type ClientRequest, type IncomingMessage } from "node:http";

export interface SseMessage {
  event: string;
  data: string;
}

export interface LightStream {
  /** Every `next` payload (the ExecutionResult), in arrival order; per operation id in single-connection mode. */
  results(operationId?: string): unknown[];
  /** Messages other than `next` and comments (e.g. `complete`), with the raw data. */
  others: SseMessage[];
  closed: boolean;
  close(): void;
}

export interface Operation {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** Splits an SSE text body into messages; comments (lines starting with ":") are dropped. */
class SseSplitter {
  private buffer = "";
  constructor(private readonly onMessage: (message: SseMessage) => void) {}

  push(text: string) {
    this.buffer += text;
    for (let end = this.buffer.indexOf("\n\n"); end >= 0; end = this.buffer.indexOf("\n\n")) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":") || line === "") continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
      }
      if (event !== "message" || data.length > 0) this.onMessage({ event, data: data.join("\n") });
    }
  }
}

interface Target {
  host: string;
  port: number;
}

function targetOf(graphqlUrl: string): Target {
  const url = new URL(graphqlUrl);
  return { host: url.hostname, port: Number(url.port) };
}

/** Opens an SSE response; resolves once the status line and headers are in (rejects on a non-200). */
function openSse(
  target: Target,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | null,
  onMessage: (message: SseMessage) => void,
  onClose: () => void,
): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = request({ ...target, method, path, agent: false, headers: { accept: "text/event-stream", ...headers } }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => reject(new Error(`${method} ${path}: HTTP ${res.statusCode} ${text.slice(0, 300)}`)));
        return;
      }
      const splitter = new SseSplitter(onMessage);
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => splitter.push(chunk));
      res.on("close", onClose);
      resolve(req);
    });
    req.on("error", (error) => {
      reject(error);
      onClose();
    });
    req.end(body ?? undefined);
  });
}

function plainRequest(
  target: Target,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | null,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ ...target, method, path, agent: false, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(body ?? undefined);
  });
}

function streamOf(collect: (results: Map<string, unknown[]>, others: SseMessage[]) => (message: SseMessage) => void) {
  const results = new Map<string, unknown[]>();
  const others: SseMessage[] = [];
  let req: ClientRequest | null = null;
  const stream: LightStream = {
    results: (operationId = "") => results.get(operationId) ?? [],
    others,
    closed: false,
    close: () => req?.destroy(),
  };
  const attach = (r: ClientRequest) => {
    req = r;
    return stream;
  };
  return { stream, onMessage: collect(results, others), onClose: () => (stream.closed = true), attach };
}

const push = (results: Map<string, unknown[]>, id: string, payload: unknown) => {
  let list = results.get(id);
  if (!list) results.set(id, (list = []));
  list.push(payload);
};

/** One subscription over its own connection: `POST /graphql/stream` (graphql-sse) or `POST /graphql` (Yoga). */
export async function openDistinct(graphqlUrl: string, token: string, path: "/graphql/stream" | "/graphql", operation: Operation): Promise<LightStream> {
  const s = streamOf((results, others) => (message) => {
    if (message.event === "next") push(results, "", JSON.parse(message.data));
    else others.push(message);
  });
  const body = JSON.stringify(operation);
  const req = await openSse(
    targetOf(graphqlUrl),
    "POST",
    path,
    { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
    body,
    s.onMessage,
    s.onClose,
  );
  return s.attach(req);
}

/** graphql-sse's single-connection mode: a reservation, its one stream, then each operation tagged with an id. */
export async function openSingleConnection(graphqlUrl: string, token: string, operations: { id: string; operation: Operation }[]): Promise<LightStream> {
  const target = targetOf(graphqlUrl);
  const auth = { authorization: `Bearer ${token}` };
  const reserved = await plainRequest(target, "PUT", "/graphql/stream", { ...auth, accept: "text/plain" }, null);
  if (reserved.status !== 201) throw new Error(`PUT /graphql/stream: HTTP ${reserved.status} ${reserved.text}`);
  const streamToken = reserved.text;
  const s = streamOf((results, others) => (message) => {
    if (message.event === "next") {
      const { id, payload } = JSON.parse(message.data) as { id: string; payload: unknown };
      push(results, id, payload);
    } else others.push(message);
  });
  const req = await openSse(target, "GET", "/graphql/stream", { ...auth, "x-graphql-event-stream-token": streamToken }, null, s.onMessage, s.onClose);
  for (const { id, operation } of operations) {
    const body = JSON.stringify({ ...operation, extensions: { operationId: id } });
    const sent = await plainRequest(
      target,
      "POST",
      "/graphql/stream",
      {
        ...auth,
        "x-graphql-event-stream-token": streamToken,
        "content-type": "application/json",
        accept: "application/json",
        "content-length": String(Buffer.byteLength(body)),
      },
      body,
    );
    if (sent.status !== 202) throw new Error(`POST operation ${id}: HTTP ${sent.status} ${sent.text}`);
  }
  return s.attach(req);
}
