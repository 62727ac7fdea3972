// What this dashboard reloads for a notification's ui effects (docs/decisions.md, "UI effects in
// the dashboard"). Effects arrive through the SDK client's one dispatcher, which every live view
// of the connection feeds, so each runs once per (notification, revision).
import { invalidate } from "$app/navigation";
import type { PersonClient } from "@herald/sdk";
import { sessionData, VIEWER_DATA } from "./load-keys";

/**
 * Consumers that live as long as the connection: the session collection (the overview's
 * Sessions list, built from the main view, whose snapshot carries each session's label) and the
 * application-level data (the signed-in person and their preferences, from the layout's load).
 */
export function mountConnectionEffects(client: PersonClient, reloadMainView: () => Promise<void>): () => void {
  const stops = [
    client.uiEffects.mount({ kind: "sessionsList" }, () => reloadMainView()),
    client.uiEffects.mount({ kind: "applicationActions" }, () => invalidate(VIEWER_DATA)),
  ];
  return () => stops.forEach((stop) => stop());
}

/** A session page's consumer while it is mounted: its load (label, heading) is read again. */
export function mountSessionEffects(client: PersonClient, sessionId: string): () => void {
  return client.uiEffects.mount({ kind: "session", sessionId }, () => invalidate(sessionData(sessionId)));
}
