// Where the dashboard's server side reaches Herald, and the sign-in cookie.
import { env } from "$env/dynamic/private";
import { createHeraldClient, type HeraldClient, HeraldUnauthenticatedError } from "@herald/sdk";
import { type Cookies, error, redirect, type RequestEvent } from "@sveltejs/kit";
import { describeFailure } from "@herald/sdk/ui/errors.ts";
import { t } from "@herald/sdk/ui/i18n/pages.ts";

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

/**
 * The person's address, for Herald's per-client budgets (its sign-in redemption budget above
 * all): calls made on a person's behalf carry it as X-Forwarded-For, which Herald believes only
 * from an address in its HERALD_TRUSTED_PROXIES (this dashboard's). Without it every person
 * would share the dashboard's own budget, and one client's junk could use it up for everyone.
 */
export function clientAddressOf(event: Pick<RequestEvent, "getClientAddress">): string | null {
  try {
    return event.getClientAddress();
  } catch {
    return null; // the adapter cannot tell (no socket): Herald counts the dashboard's own address
  }
}

/** fetch with the person's address as X-Forwarded-For. */
export function forwardingFetch(clientAddress: string | null): typeof fetch | undefined {
  if (!clientAddress) return undefined;
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("x-forwarded-for", clientAddress);
    return fetch(input, { ...init, headers });
  };
}

/** A short-lived SDK client for one server-side request on the person's behalf; close it when done. */
export function serverClient(token: string, clientAddress: string | null = null): HeraldClient {
  return createHeraldClient({ url: heraldUrl(), token, fetch: forwardingFetch(clientAddress) });
}

/** A client without a credential, for `redeemSignInCode` (which needs none). */
export function anonymousClient(clientAddress: string | null = null): HeraldClient {
  return createHeraldClient({ url: heraldUrl(), fetch: forwardingFetch(clientAddress) });
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
export async function asPerson<T>(
  event: Pick<RequestEvent, "locals" | "cookies" | "url" | "getClientAddress">,
  read: (client: HeraldClient) => Promise<T>,
): Promise<T> {
  const { locals, cookies, url } = event;
  if (!locals.token) redirect(303, "/signin");
  const client = serverClient(locals.token, clientAddressOf(event));
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
