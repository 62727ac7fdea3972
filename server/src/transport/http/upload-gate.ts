// Who may send a multipart (file upload) request: a producer key, to the GraphQL endpoint. Decided
// from the headers alone, so an upload nobody may make costs no more than its refusal.
import type { Services } from "../../services.ts";
import { callerOf, type RequestContext } from "./caller-gate.ts";
import { isStorageUnavailable } from "../../service/storage-unavailable.ts";
import { errorResponse, storageUnavailableResponse } from "../../util/http-errors.ts";

export function uploadRefusal(services: Services, endpoint: string): (request: Request, serverContext: RequestContext) => Promise<Response | null> {
  return async (request, serverContext) => {
    let caller;
    try {
      caller = await callerOf(services, request, serverContext);
    } catch (error) {
      if (isStorageUnavailable(error)) return storageUnavailableResponse();
      return errorResponse("UNAUTHENTICATED", "The credential is not valid");
    }
    if (caller === null) return errorResponse("UNAUTHENTICATED", "File uploads need a producer key");
    if (caller.kind !== "producer") return errorResponse("FORBIDDEN", "File uploads need a producer key; a person token was given");
    if (new URL(request.url).pathname !== endpoint) {
      return errorResponse("UNSUPPORTED_MEDIA_TYPE", `Multipart requests are accepted at ${endpoint} only`);
    }
    return null;
  };
}
