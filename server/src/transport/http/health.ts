// GET /health: a liveness probe for load balancers and process supervisors. It answers once the
// process serves HTTP (the store was migrated before), needs no credential and reveals nothing.
import type { IncomingMessage, ServerResponse } from "node:http";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export function withHealth(next: Handler): Handler {
  return (request, response) => {
    if (request.url !== "/health" || (request.method !== "GET" && request.method !== "HEAD")) return next(request, response);
    const body = JSON.stringify({ status: "ok" });
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "cache-control": "no-store" });
    response.end(request.method === "HEAD" ? undefined : body);
  };
}
