// Display defaults: what a notification looks like when the producer leaves display fields out.
import type { NotificationScope, Presentation } from "./enums.ts";
import type { Display, NotificationContent } from "./notification.ts";
import { definedOnly } from "./objects.ts";

// A personal notification lives in the inbox (INLINE): a banner on every page is for what the
// whole application must see, or for a producer that asks for one explicitly.
export const defaultPresentation: Record<NotificationScope, Presentation> = {
  APPLICATION: "BANNER",
  SESSION: "INLINE",
  PERSON: "INLINE",
};

/** The display a client renders: the producer's overrides over defaults derived from content. */
export function resolveDisplay(scope: NotificationScope, content: Pick<NotificationContent, "title" | "body" | "severity" | "displayOverrides">): Display {
  return {
    format: "TEXT",
    title: content.title,
    body: content.body,
    variant: content.severity,
    presentation: defaultPresentation[scope],
    dismissible: true,
    ...definedOnly(content.displayOverrides),
  };
}

/** Application notifications are not tied to a session region, so they cannot be inline. */
export function presentationAllowed(scope: NotificationScope, presentation: Presentation): boolean {
  return !(scope === "APPLICATION" && presentation === "INLINE");
}
