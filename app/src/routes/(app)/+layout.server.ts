// Every dashboard page needs a signed-in person: check the cookie's token with Herald once per
// navigation and hand the page the person's name and quiet mode.
import { VIEWER_DATA } from "$lib/dashboard/load-keys";
import { asPerson } from "$lib/server/herald";
import type { LayoutServerLoad } from "./$types";

export const load: LayoutServerLoad = (event) => {
  // A notification's reload_application_actions effect reloads this (the dashboard's application data).
  event.depends(VIEWER_DATA);
  return asPerson(event, async (client) => ({ viewer: await client.viewer() }));
};
