// One JSON POST over node:http(s), for the short-lived commands (a harness hook, the producer
// commands, the MCP tools' calls). Node's global fetch loads its bundled HTTP client (undici) on
// first use, which costs a hook more start-up than everything else it loads together
// (bench/history.md, "Hook start-up"); node:http is already in the binary's snapshot.
import type { IncomingHttpHeaders } from "node:http";

/** The most of an answer read: a GraphQL result for one operation is a few kilobytes. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export interface JsonAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** Failure to get an answer at all: `code` is the socket's (ECONNREFUSED) or ABORTED / TOO_LARGE. */
export class PostFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** POSTs `body` to `url` and reads the whole answer; `signal` ends the request and the read. */
export async function postJson(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<JsonAnswer> {
  signal.throwIfAborted();
  const { request } = url.protocol === "https:" ? await import("node:https") : await import("node:http");
  const payload = Buffer.from(body, "utf8");
  return new Promise<JsonAnswer>((resolve, reject) => {
    const sent = request(url, { method: "POST", headers: { ...headers, "content-length": String(payload.length) } }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          sent.destroy(new PostFailure("TOO_LARGE", `the answer is over ${MAX_ANSWER_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.once("end", () => {
        signal.removeEventListener("abort", abort);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString("utf8") });
      });
      response.once("error", fail);
    });
    function fail(error: Error & { code?: string }) {
      signal.removeEventListener("abort", abort);
      reject(error instanceof PostFailure ? error : new PostFailure(error.code ?? "EFAIL", error.message));
    }
    function abort() {
      sent.destroy(new PostFailure("ABORTED", "the request was cut short"));
    }
    signal.addEventListener("abort", abort, { once: true });
    sent.once("error", fail);
    sent.end(payload);
  });
}
