// Sign-out is a POST (a form in the header), so a link or prefetch cannot sign anyone out.
import { redirect } from "@sveltejs/kit";
import { clearTokenCookie } from "$lib/server/herald";
import type { Actions, PageServerLoad } from "./$types";

export const load: PageServerLoad = () => redirect(303, "/");

export const actions: Actions = {
  default: ({ cookies, url }) => {
    clearTokenCookie(cookies, url);
    redirect(303, "/signin");
  },
};
