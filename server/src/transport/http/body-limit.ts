// Refuses request bodies above the configured size before anything parses them. The body is
// counted as it arrives, so a missing or false Content-Length does not get past the limit,
// and nothing beyond limit + one chunk is ever held in memory.
import type { Plugin } from "graphql-yoga";
import type { RequestContext } from "./caller-gate.ts";
import { errorResponse } from "../../util/http-errors.ts";
import { readAtMost } from "../../util/read-at-most.ts";

/**
 * After refusing, the rest of an upload is read and dropped (up to this much) so the client gets
 * to read the 413: closing a socket with unread data makes the kernel reset the connection, and
 * the client then sees a network error instead of the answer (nginx's "lingering close").
 */
const LINGER_BYTES = 32 * 1024 * 1024;

/** A larger cap for file uploads (multipart requests), for the callers `refusal` lets through. */
export interface UploadAllowance {
  maxBytes: number;
  /** Null when the caller may upload here; else the answer, sent before the body is read. */
  refusal(request: Request, serverContext: RequestContext): Promise<Response | null>;
}

export function useBodyLimit(maxBytes: number, upload?: UploadAllowance): Plugin {
  const tooLarge = (limit: number) => errorResponse("PAYLOAD_TOO_LARGE", `The request body is larger than ${limit} bytes`);
  return {
    async onRequest({ request, serverContext, setRequest, endResponse, fetchAPI }) {
      if (!request.body) return;
      const reader = request.body.getReader();
      const multipart = (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");
      const refused = upload && multipart ? await upload.refusal(request, serverContext as RequestContext) : null;
      if (refused) {
        void discard(reader, LINGER_BYTES);
        return endResponse(refused);
      }
      const limit = upload && multipart ? upload.maxBytes : maxBytes;
      const declared = Number(request.headers.get("content-length") ?? "0");
      const body = declared > limit ? null : await readAtMost(reader, limit);
      if (!body) {
        void discard(reader, LINGER_BYTES);
        return endResponse(tooLarge(limit));
      }
      setRequest(new fetchAPI.Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal }));
    },
  };
}

async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number): Promise<void> {
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > maxBytes) break;
    }
    await reader.cancel();
  } catch {
    // the client went away: nothing left to drop
  }
}
