// Sign-in by pasting a person token: the server checks it with Herald (viewer) and keeps it in
// an httpOnly cookie. The token travels in the form body only, never in a URL.
import { fail, redirect } from "@sveltejs/kit";
import { describeFailure, serverClient, setTokenCookie } from "$lib/server/herald";
import type { Actions, PageServerLoad } from "./$types";

export const load: PageServerLoad = ({ locals, url }) => {
  if (locals.token) redirect(303, "/");
  return { expired: url.searchParams.has("expired") };
};

export const actions: Actions = {
  default: async ({ request, cookies, url }) => {
    const form = await request.formData();
    const token = String(form.get("token") ?? "").trim();
    if (!token) return fail(400, { error: "Paste your person token to sign in." });
    if (token.startsWith("herald_pk_")) {
      return fail(400, { error: "That is a producer key, not a person token. Person tokens start with herald_pt_." });
    }
    const client = serverClient(token);
    try {
      await client.viewer();
    } catch (error) {
      const { message, unreachable } = describeFailure(error);
      return fail(unreachable ? 503 : 400, { error: message });
    } finally {
      client.close();
    }
    setTokenCookie(cookies, url, token);
    redirect(303, "/");
  },
};
