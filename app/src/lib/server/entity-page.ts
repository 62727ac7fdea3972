// The `load` of a page about one session or engagement: the entity comes from Herald, so the
// page is named even when it holds no notification; one the person may not see is a 404.
import { error, type RequestEvent } from "@sveltejs/kit";
import type { HeraldClient } from "@herald/sdk";
import { asPerson } from "./herald";
import { t } from "@herald/sdk/ui/i18n/pages.ts";

export interface EntityHeading {
  /** What kind of page this is, for the breadcrumb ("Session", "Engagement"). */
  kind: string;
  title: string;
  subtitle: string | null;
}

export async function loadEntity<T>(
  event: Pick<RequestEvent, "locals" | "cookies" | "url" | "getClientAddress">,
  kind: string,
  read: (client: HeraldClient) => Promise<T | null>,
  heading: (entity: T) => Omit<EntityHeading, "kind">,
): Promise<{ entity: T; heading: EntityHeading }> {
  const entity = await asPerson(event, read);
  if (entity === null) error(404, { message: t.errors.noSuchEntity(kind), hint: t.errors.noSuchEntityHint });
  return { entity, heading: { kind, ...heading(entity) } };
}
