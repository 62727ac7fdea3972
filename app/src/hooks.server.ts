import type { Handle } from "@sveltejs/kit";
import { TOKEN_COOKIE } from "$lib/server/herald";

export const handle: Handle = async ({ event, resolve }) => {
  event.locals.token = event.cookies.get(TOKEN_COOKIE) || null;
  const response = await resolve(event);
  // One-time sign-in links carry a code in their path: never send it on as a Referer.
  const referrerPolicy = event.url.pathname.startsWith("/signin/") ? "no-referrer" : "same-origin";
  try {
    response.headers.set("referrer-policy", referrerPolicy);
    response.headers.set("x-content-type-options", "nosniff");
  } catch {
    // immutable headers (a fetched response passed through untouched): leave them
  }
  return response;
};
