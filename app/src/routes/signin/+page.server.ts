// Sign-in by pasting a person token: the server checks it with Herald (viewer) and keeps it in
// an httpOnly cookie. The token travels in the form body only, never in a URL.
import { fail, redirect } from "@sveltejs/kit";
import { describeFailure, sentenceForCode } from "@herald/sdk/ui/errors.ts";
import { clientAddressOf, serverClient, setTokenCookie } from "$lib/server/herald";
import type { Actions, PageServerLoad } from "./$types";
import { t } from "@herald/sdk/ui/i18n/pages.ts";

export const load: PageServerLoad = ({ locals, url }) => {
  if (locals.token) redirect(303, "/");
  return { expired: url.searchParams.has("expired") };
};

export const actions: Actions = {
  default: async (event) => {
    const { request, cookies, url } = event;
    const form = await request.formData();
    const token = String(form.get("token") ?? "").trim();
    if (!token) return fail(400, { error: t.signin.missingToken });
    // Refused before it travels anywhere (Herald would answer FORBIDDEN with the same sentence).
    if (token.startsWith("herald_pk_")) return fail(400, { error: sentenceForCode("FORBIDDEN", "token") });
    const client = serverClient(token, clientAddressOf(event));
    try {
      await client.viewer();
    } catch (error) {
      const { message, unreachable } = describeFailure(error, "token");
      return fail(unreachable ? 503 : 400, { error: message });
    } finally {
      client.close();
    }
    setTokenCookie(cookies, url, token);
    redirect(303, "/");
  },
};
