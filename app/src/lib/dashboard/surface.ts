// Which page a banner or modal belongs to: a SESSION notification's surface is its session's
// page; PERSON and APPLICATION notifications belong to every page.
import type { Notification } from "@herald/sdk";

/** The route of a session's page (its `id` param is the Herald session id). */
export const SESSION_ROUTE = "/(app)/sessions/[id]";

/** The session whose page is open, from the current route; null on every other page. */
export function openSessionOf(page: { route: { id: string | null }; params: Record<string, string> }): string | null {
  return page.route.id === SESSION_ROUTE ? (page.params.id ?? null) : null;
}

export function onThisSurface(n: Pick<Notification, "scope" | "sessionId">, openSession: string | null): boolean {
  return n.scope !== "SESSION" || (n.sessionId !== null && n.sessionId === openSession);
}
