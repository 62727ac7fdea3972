// POST /actions/<token>: a channel payload's action URL (service/action-link-service.ts). The
// token is the only credential, so any origin may call it (a service worker, ntfy's app); the
// answer is JSON with a status that says what happened (409 used or stale, 410 ended or expired).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../logger.ts";
import type { ActionLinkService } from "../../service/action-link-service.ts";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const PATH = /^\/actions\/([^/?#]+)(?:\?.*)?$/;
const MAX_BODY_BYTES = 64 * 1024;
/** How far past the limit a refused body is still read (and dropped) before the connection is cut. */
const DRAIN_FACTOR = 16;

export function withActionLinks(links: ActionLinkService, logger: Logger, next: Handler): Handler {
  return (request, response) => {
    const match = request.url ? PATH.exec(request.url) : null;
    if (!match) return next(request, response);
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "POST",
      "access-control-allow-headers": "content-type",
      "access-control-max-age": "600",
    };
    if (request.method === "OPTIONS") {
      response.writeHead(204, cors);
      return void response.end();
    }
    const answer = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      response.writeHead(status, { ...cors, "content-type": "application/json", "content-length": Buffer.byteLength(text), "cache-control": "no-store" });
      response.end(text);
    };
    if (request.method !== "POST") return answer(405, { error: "POST only" });
    readBody(request, MAX_BODY_BYTES).then(
      async (body) => {
        let values: unknown = null;
        if (body.length > 0) {
          try {
            const parsed = JSON.parse(body) as { values?: unknown } | null;
            values = parsed && typeof parsed === "object" ? (parsed.values ?? null) : null;
          } catch {
            return answer(400, { error: 'the body must be JSON: { "values": { ... } }' });
          }
        }
        try {
          // A malformed escape is a token that cannot exist: the same 404 as any unknown one.
          const result = await links.use(decodedOrEmpty(match[1]!), values);
          answer(result.status, result);
        } catch (error) {
          // Never the token in a log line.
          logger.error({ err: (error as Error).message }, "an action link failed");
          answer(500, { error: "internal error" });
        }
      },
      () => {
        response.setHeader("connection", "close");
        answer(413, { error: `the body is larger than ${MAX_BODY_BYTES} bytes` });
      },
    );
  };
}

function decodedOrEmpty(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}

function readBody(request: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error("too large"));
        chunks.length = 0;
        // The rest of a body somewhat over the limit is read and dropped, so the client gets the
        // 413 rather than a reset while it still sends; one far over it is cut off.
        if (size > limit * DRAIN_FACTOR) request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}
