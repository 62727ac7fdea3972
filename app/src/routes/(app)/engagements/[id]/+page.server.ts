import { loadEntity } from "$lib/server/entity-page";
import type { PageServerLoad } from "./$types";

export const load: PageServerLoad = (event) =>
  loadEntity(
    event,
    "Engagement",
    (client) => client.engagement(event.params.id),
    (engagement) => ({ title: engagement.name, subtitle: null }),
  );
