import type { Handle } from "@sveltejs/kit";
import { TOKEN_COOKIE } from "$lib/server/herald";

export const handle: Handle = async ({ event, resolve }) => {
  event.locals.token = event.cookies.get(TOKEN_COOKIE) || null;
  const response = await resolve(event);
  // same-origin: no address of the dashboard (a sign-in link's code included) reaches another
  // origin as a Referer. Not no-referrer: with it browsers send "Origin: null" on the sign-in
  // link's confirm POST, and SvelteKit's CSRF check refuses that as cross-site.
  try {
    response.headers.set("referrer-policy", "same-origin");
    response.headers.set("x-content-type-options", "nosniff");
  } catch {
    // immutable headers (a fetched response passed through untouched): leave them
  }
  return response;
};
