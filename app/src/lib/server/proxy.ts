// The browser's only way to Herald: it cannot read the httpOnly cookie, so these routes add
// `Authorization: Bearer <token>` and pass requests and responses through. SSE responses are
// returned as the upstream stream itself (no buffering), and closing the browser's request
// cancels the upstream one.
import type { RequestEvent } from "@sveltejs/kit";
import { clearTokenCookie, clientAddressOf } from "$lib/server/herald";

/** Request headers the GraphQL and graphql-sse protocols need; everything else stays here. */
const FORWARDED_REQUEST_HEADERS = ["accept", "content-type", "x-graphql-event-stream-token", "last-event-id", "accept-language"];
/** Hop-by-hop headers, and ones that no longer describe the body once fetch has decoded it. */
const DROPPED_RESPONSE_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding", "content-encoding", "content-length", "set-cookie"]);

function graphqlError(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

export async function proxyToHerald(event: RequestEvent, target: string): Promise<Response> {
  const { request, url, cookies } = event;
  // A cross-site page cannot use the person's cookie here (SameSite=Lax already keeps it off
  // cross-site POSTs); refusing a foreign Origin outright also covers same-site neighbours.
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== url.origin) return graphqlError(403, "FORBIDDEN", "Cross-origin requests are not accepted.");

  const token = event.locals.token;
  if (!token) return graphqlError(401, "UNAUTHENTICATED", "Not signed in.");

  const headers = new Headers();
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  headers.set("authorization", `Bearer ${token}`);
  // Never the browser's own X-Forwarded-For: the address the dashboard established (herald.ts).
  const client = clientAddressOf(event);
  if (client) headers.set("x-forwarded-for", client);
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();

  let upstream: Response;
  try {
    upstream = await fetch(target + url.search, {
      method: request.method,
      headers,
      body: body && body.byteLength > 0 ? body : undefined,
      redirect: "manual",
      signal: request.signal,
    });
  } catch {
    return graphqlError(502, "HERALD_UNREACHABLE", "Herald could not be reached.");
  }

  // A revoked or expired token: forget it, so the next page load asks the person to sign in.
  if (upstream.status === 401) clearTokenCookie(cookies, url);

  const responseHeaders = new Headers();
  upstream.headers.forEach((value, name) => {
    if (!DROPPED_RESPONSE_HEADERS.has(name)) responseHeaders.set(name, value);
  });
  if (responseHeaders.get("content-type")?.startsWith("text/event-stream")) {
    responseHeaders.set("cache-control", "no-cache, no-transform");
    responseHeaders.set("x-accel-buffering", "no"); // tells nginx-style proxies in front not to buffer
  } else {
    responseHeaders.set("cache-control", "no-store");
  }
  return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers: responseHeaders });
}
