// Refuses request bodies above the configured size before anything parses them. The body is
// counted as it arrives, so a missing or false Content-Length does not get past the limit,
// and nothing beyond limit + one chunk is ever held in memory.
import type { Plugin } from "graphql-yoga";
import { errorResponse } from "./http-errors.ts";

export function useBodyLimit(maxBytes: number): Plugin {
  const tooLarge = () =>
    // Closing the connection stops the client's upload instead of reading it to the end.
    errorResponse("PAYLOAD_TOO_LARGE", `The request body is larger than ${maxBytes} bytes`, { connection: "close" });
  return {
    async onRequest({ request, setRequest, endResponse, fetchAPI }) {
      if (!request.body) return;
      const declared = Number(request.headers.get("content-length") ?? "0");
      if (declared > maxBytes) {
        void request.body.cancel().catch(() => undefined);
        return endResponse(tooLarge());
      }
      const body = await readAtMost(request.body, maxBytes);
      if (!body) return endResponse(tooLarge());
      setRequest(new fetchAPI.Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal }));
    },
  };
}

/** The whole body, or null as soon as it passes `maxBytes`. */
async function readAtMost(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}
