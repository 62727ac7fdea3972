// One-time sign-in link /signin/<code>. Opening the link (GET, HEAD, a link-preview bot, a mail
// scanner, a prefetch) only shows a confirm page: a code redeemed on GET would hand its token to
// whoever fetched first and lock the person out. Redemption is the page's POST form action,
// which SvelteKit accepts only from this dashboard's own origin (its CSRF origin check). It
// calls Herald's `redeemSignInCode` (no credential needed), puts the token in the cookie and
// sends the person to /, so the code leaves the address bar at once.
import { fail, redirect } from "@sveltejs/kit";
import { describeFailure } from "@herald/sdk/ui/errors.ts";
import { anonymousClient, clientAddressOf, setTokenCookie } from "$lib/server/herald";
import type { Actions, PageServerLoad } from "./$types";

export const load: PageServerLoad = ({ setHeaders }) => {
  setHeaders({ "cache-control": "no-store" });
  return {};
};

export const actions: Actions = {
  default: async (event) => {
    const { params, cookies, url } = event;
    // Herald budgets redemptions per client: it must see the person's address, not the dashboard's.
    const client = anonymousClient(clientAddressOf(event));
    let token: string;
    try {
      token = await client.redeemSignInCode(params.code);
    } catch (error) {
      const { message, unreachable } = describeFailure(error, "link");
      return fail(unreachable ? 503 : 400, { error: message });
    } finally {
      client.close();
    }
    setTokenCookie(cookies, url, token);
    redirect(303, "/");
  },
};
