// Where the dashboard's server side reaches Herald, and the sign-in cookie.
import { env } from "$env/dynamic/private";
import { createHeraldClient, HeraldError, type HeraldClient } from "@herald/sdk";
import type { Cookies } from "@sveltejs/kit";

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

/** A person-facing sentence for a failed call to Herald. */
export function describeFailure(error: unknown): { message: string; unreachable: boolean } {
  if (error instanceof HeraldError) {
    switch (error.code) {
      case "NETWORK":
        return { message: "Herald could not be reached. Check that it is running and try again.", unreachable: true };
      case "UNAUTHENTICATED":
        return { message: "Herald did not accept this token. It may be mistyped, revoked or expired.", unreachable: false };
      case "FORBIDDEN":
        return { message: "That is a producer key, not a person token. Sign in with a token that starts with herald_pt_.", unreachable: false };
      default:
        return { message: error.message, unreachable: false };
    }
  }
  return { message: "Herald could not be reached. Check that it is running and try again.", unreachable: true };
}
