// Sign-out is a POST (a form in the header), so a link or prefetch cannot sign anyone out.
import { redirect } from "@sveltejs/kit";
import { clearTokenCookie, clientAddressOf, serverClient, TOKEN_COOKIE } from "$lib/server/herald";
import type { Actions, PageServerLoad } from "./$types";

export const load: PageServerLoad = () => redirect(303, "/");

export const actions: Actions = {
  default: async (event) => {
    const { cookies, url } = event;
    const token = cookies.get(TOKEN_COOKIE);
    if (token) {
      // The token was minted for this browser: revoke it, so a copy of the cookie stops working too
      // and its open streams end. If Herald cannot be reached the cookie still goes.
      const client = serverClient(token, clientAddressOf(event));
      await client.signOut().catch(() => undefined);
      client.close();
    }
    clearTokenCookie(cookies, url);
    redirect(303, "/signin");
  },
};
