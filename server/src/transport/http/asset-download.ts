// GET /assets/:id: a person downloads an attachment while a notification they can see names it.
// Anything else (no such asset, another person's, one no longer referenced) is the same 404, so
// the answer never tells whether an id exists. Always an attachment with nosniff: the browser
// saves the file and never renders or executes it, whatever its bytes are.
import { Readable } from "node:stream";
import contentDisposition from "content-disposition";
import type { Plugin } from "graphql-yoga";
import type { Logger } from "../../logger.ts";
import type { Services } from "../../services.ts";
import { isStorageUnavailable } from "../../service/storage-unavailable.ts";
import { callerOf, type RequestContext } from "./caller-gate.ts";
import { chunkedBody, DownloadSlots, streamedBody } from "./download-slots.ts";
import type { RequestsInFlight } from "./download-priority.ts";
import { errorResponse, storageUnavailableResponse } from "../../util/http-errors.ts";
import { requestLogger } from "../../util/request-context.ts";

export const DOWNLOAD_PATH = /^\/assets\/([^/]+)$/;

/** `requests`: the other requests in flight, which each chunk of a download waits for (download-priority.ts). */
export function useAssetDownload(services: Services, logger: Logger, downloadsPerCredential: number, requests: RequestsInFlight): Plugin {
  const slots = new DownloadSlots(downloadsPerCredential);
  return {
    async onRequest({ request, url, serverContext, endResponse, fetchAPI }) {
      const match = DOWNLOAD_PATH.exec(url.pathname);
      if (!match) return;
      if (request.method !== "GET" && request.method !== "HEAD") {
        return endResponse(errorResponse("METHOD_NOT_ALLOWED", "Use GET", { allow: "GET, HEAD" }));
      }
      try {
        const caller = await callerOf(services, request, serverContext as RequestContext).catch(() => undefined);
        if (caller === undefined) return endResponse(errorResponse("UNAUTHENTICATED", "The credential is not valid"));
        if (caller === null) return endResponse(errorResponse("UNAUTHENTICATED", "Sign in with a person token"));
        if (caller.kind !== "person") return endResponse(errorResponse("FORBIDDEN", "Downloads need a person token; a producer key was given"));
        const head = request.method === "HEAD";
        const release = head ? () => undefined : slots.acquire(caller.credentialId);
        if (!release) {
          return endResponse(
            errorResponse("TOO_MANY_REQUESTS", `This credential already has ${downloadsPerCredential} downloads in flight; retry when one ends`, {
              "retry-after": "1",
            }),
          );
        }
        if (request.signal?.aborted) release();
        else request.signal?.addEventListener("abort", release, { once: true });
        const id = decodedOrNull(match[1]!);
        const found =
          id === null
            ? null
            : await services.assets.download(caller.personId, id).catch((error: unknown) => {
                release();
                throw error;
              });
        if (!found) {
          release();
          return endResponse(errorResponse("NOT_FOUND", "No such attachment"));
        }
        const { meta, open } = found;
        // Opened before the status line: bytes missing from the store are a clean 500, not a cut 200.
        const chunks = head
          ? null
          : await open().catch((error: unknown) => {
              release();
              throw error;
            });
        const body =
          chunks === null
            ? null
            : chunks instanceof Readable
              ? streamedBody(chunks, release, request.signal, requests)
              : chunkedBody(chunks, meta.size, release, request.signal, requests);
        // Yoga's own Response accepts a node stream (typed as BodyInit it is not) and pipes it.
        return endResponse(
          new fetchAPI.Response(body as BodyInit | null, {
            status: 200,
            headers: {
              "content-type": meta.contentType,
              "content-length": String(meta.size),
              "content-disposition": contentDisposition(meta.filename, { type: "attachment", fallback: asciiFallback(meta.filename) }),
              "x-content-type-options": "nosniff",
              "content-security-policy": "default-src 'none'; sandbox",
              "cache-control": "private, no-store",
              etag: `"${meta.sha256}"`,
            },
          }),
        );
      } catch (error) {
        if (isStorageUnavailable(error)) return endResponse(storageUnavailableResponse());
        requestLogger(logger, request).error({ err: error }, "attachment download failed");
        return endResponse(errorResponse("INTERNAL_SERVER_ERROR", "Unexpected error."));
      }
    },
  };
}

/** The plain `filename=` for old clients: ASCII only; anything else is in `filename*` (RFC 6266). */
function asciiFallback(filename: string): string {
  return filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
}

/** A malformed escape is an id that cannot exist: the same 404 as any other. */
function decodedOrNull(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
