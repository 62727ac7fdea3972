import { sessionLabel } from "$lib/format";
import { loadEntity } from "$lib/server/entity-page";
import type { PageServerLoad } from "./$types";

export const load: PageServerLoad = (event) =>
  loadEntity(
    event,
    "Session",
    (client) => client.session(event.params.id),
    (session) => ({ title: sessionLabel(session), subtitle: `${session.harness} · ${session.sessionId}` }),
  );
