// Every dashboard page needs a signed-in person: check the cookie's token with Herald once per
// navigation and hand the page the person's name and quiet mode.
import { asPerson } from "$lib/server/herald";
import type { LayoutServerLoad } from "./$types";

export const load: LayoutServerLoad = (event) => asPerson(event, async (client) => ({ viewer: await client.viewer() }));
