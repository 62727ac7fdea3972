// One-time sign-in link /signin/<code>: redeemed here with Herald's
// `redeemSignInCode(code: String!): IssuedCredential!` (SDK `redeemSignInCode`, no credential
// needed); the token goes into the cookie and the person lands on /, so the code leaves the
// address bar at once. A used, expired or unknown code gets a page that says so.
import { redirect } from "@sveltejs/kit";
import { anonymousClient, describeFailure, setTokenCookie } from "$lib/server/herald";
import type { PageServerLoad } from "./$types";

export const load: PageServerLoad = async ({ params, cookies, url, setHeaders }) => {
  setHeaders({ "cache-control": "no-store" });
  const client = anonymousClient();
  let token: string;
  try {
    token = await client.redeemSignInCode(params.code);
  } catch (error) {
    const { message, unreachable } = describeFailure(error);
    return {
      error: unreachable
        ? message
        : "This sign-in link is not valid any more: it may have been used already or have expired. Ask for a new one, or sign in with a token.",
    };
  } finally {
    client.close();
  }
  setTokenCookie(cookies, url, token);
  redirect(303, "/");
};
