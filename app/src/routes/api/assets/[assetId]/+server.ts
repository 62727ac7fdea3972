// DOWNLOAD_ATTACHMENT_ASSET follow-ups: streams Herald's GET /assets/:id with the person's token
// from the cookie. Herald decides who may read it (a notification naming the asset must be
// visible to the person) and answers 404 otherwise; the file is always a download, never shown.
import { clearTokenCookie, heraldUrl } from "$lib/server/herald";
import { t } from "@herald/sdk/ui/i18n/pages.ts";
import type { RequestHandler } from "./$types";

/** Headers of Herald's answer that describe the file; nothing else is passed on. */
const FILE_HEADERS = ["content-type", "content-length", "content-disposition", "etag"];

function text(status: number, message: string): Response {
  return new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

export const GET: RequestHandler = async ({ params, locals, cookies, url, request }) => {
  if (!locals.token) return text(401, t.assets.signIn);
  const base = heraldUrl().replace(/\/graphql$/, "");
  let upstream: Response;
  try {
    upstream = await fetch(`${base}/assets/${encodeURIComponent(params.assetId)}`, {
      headers: { authorization: `Bearer ${locals.token}` },
      redirect: "manual",
      signal: request.signal,
    });
  } catch {
    return text(502, t.assets.unreachable);
  }
  if (upstream.status === 401) {
    clearTokenCookie(cookies, url);
    return text(401, t.assets.signInAgain);
  }
  if (upstream.status === 404) return text(404, t.assets.notFound);
  if (upstream.status !== 200 || !upstream.body) return text(502, t.assets.failed);
  const headers = new Headers({
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    "cache-control": "private, no-store",
  });
  for (const name of FILE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  // Herald always sends one; the fallback keeps the browser from ever rendering the file inline.
  if (!headers.has("content-disposition")) headers.set("content-disposition", "attachment");
  return new Response(upstream.body, { status: 200, headers });
};
