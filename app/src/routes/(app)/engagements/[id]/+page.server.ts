import { loadEntity } from "$lib/server/entity-page";
import type { PageServerLoad } from "./$types";
import { t } from "@herald/sdk/ui/i18n/pages.ts";

export const load: PageServerLoad = (event) =>
  loadEntity(
    event,
    t.entity.engagement,
    (client) => client.engagement(event.params.id),
    (engagement) => ({ title: engagement.name, subtitle: null }),
  );
