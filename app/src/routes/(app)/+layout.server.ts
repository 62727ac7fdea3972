// Every dashboard page needs a signed-in person: check the cookie's token with Herald once per
// navigation and hand the page the person's name and quiet mode.
import { error, redirect } from "@sveltejs/kit";
import { HeraldUnauthenticatedError } from "@herald/sdk";
import { clearTokenCookie, describeFailure, serverClient } from "$lib/server/herald";
import type { LayoutServerLoad } from "./$types";

export const load: LayoutServerLoad = async ({ locals, cookies, url }) => {
  if (!locals.token) redirect(303, "/signin");
  const client = serverClient(locals.token);
  try {
    const viewer = await client.viewer();
    return { viewer };
  } catch (failure) {
    if (failure instanceof HeraldUnauthenticatedError) {
      clearTokenCookie(cookies, url);
      redirect(303, "/signin?expired");
    }
    const { message, unreachable } = describeFailure(failure);
    error(unreachable ? 503 : 500, { message, hint: "The dashboard will work again as soon as Herald answers. Reload to retry." });
  } finally {
    client.close();
  }
};
