import { loadEntity } from "$lib/server/entity-page";
import type { PageServerLoad } from "./$types";
import { t } from "$lib/i18n";

export const load: PageServerLoad = (event) =>
  loadEntity(
    event,
    t.entity.engagement,
    (client) => client.engagement(event.params.id),
    (engagement) => ({ title: engagement.name, subtitle: null }),
  );
