import { sessionData } from "$lib/dashboard/load-keys";
import { sessionLabel } from "@herald/sdk/ui/format.ts";
import { loadEntity } from "$lib/server/entity-page";
import type { PageServerLoad } from "./$types";
import { t } from "@herald/sdk/ui/i18n/pages.ts";

export const load: PageServerLoad = (event) => {
  // A reload_session_ids effect naming this session reloads it (label, heading).
  event.depends(sessionData(event.params.id));
  return loadEntity(
    event,
    t.entity.session,
    (client) => client.session(event.params.id),
    (session) => ({ title: sessionLabel(session), subtitle: t.entity.sessionSubtitle(session.harness, session.sessionId) }),
  );
};
