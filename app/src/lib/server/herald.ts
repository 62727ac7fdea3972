// Where the dashboard's server side reaches Herald, and the sign-in cookie.
import { env } from "$env/dynamic/private";
import { createHeraldClient, type HeraldClient, HeraldUnauthenticatedError } from "@herald/sdk";
import { type Cookies, error, redirect, type RequestEvent } from "@sveltejs/kit";
import { describeFailure } from "$lib/errors";
import { t } from "$lib/i18n";

export const TOKEN_COOKIE = "herald_token";
const THIRTY_DAYS = 60 * 60 * 24 * 30;

/** Herald's GraphQL endpoint (env HERALD_URL). */
export function heraldUrl(): string {
  return (env.HERALD_URL || "http://127.0.0.1:4000/graphql").replace(/\/$/, "");
}

/** Herald's graphql-sse endpoint. */
export function heraldStreamUrl(): string {
  return `${heraldUrl()}/stream`;
}

/** A short-lived SDK client for one server-side request; close it when done. */
export function serverClient(token: string): HeraldClient {
  return createHeraldClient({ url: heraldUrl(), token });
}

/** A client without a credential, for `redeemSignInCode` (which needs none). */
export function anonymousClient(): HeraldClient {
  return createHeraldClient({ url: heraldUrl() });
}

/** httpOnly, SameSite=Lax, Secure when the dashboard is served over https. */
export function setTokenCookie(cookies: Cookies, url: URL, token: string): void {
  cookies.set(TOKEN_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: url.protocol === "https:",
    maxAge: THIRTY_DAYS,
  });
}

export function clearTokenCookie(cookies: Cookies, url: URL): void {
  cookies.delete(TOKEN_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure: url.protocol === "https:" });
}

/**
 * Runs `read` with a client for the signed-in person, for a page's `load`: without a token, or
 * with one Herald no longer accepts, the person is sent to sign in; Herald not answering is a
 * 503 page that says so.
 */
export async function asPerson<T>(event: Pick<RequestEvent, "locals" | "cookies" | "url">, read: (client: HeraldClient) => Promise<T>): Promise<T> {
  const { locals, cookies, url } = event;
  if (!locals.token) redirect(303, "/signin");
  const client = serverClient(locals.token);
  try {
    return await read(client);
  } catch (failure) {
    if (failure instanceof HeraldUnauthenticatedError) {
      clearTokenCookie(cookies, url);
      redirect(303, "/signin?expired");
    }
    const { message, unreachable } = describeFailure(failure);
    error(unreachable ? 503 : 500, { message, hint: t.errors.serverHint });
  } finally {
    client.close();
  }
}
