// A Feed for one page (a session or an engagement), replaced when the page's id changes.
import type { NotificationFilter } from "@herald/sdk";
import { untrack } from "svelte";
import type { Dashboard } from "@herald/sdk/ui/dashboard/dashboard.svelte.ts";
import { Feed } from "@herald/sdk/ui/live.svelte.ts";

export function scopedFeed(dash: Dashboard, filter: () => NotificationFilter): { readonly current: Feed | null } {
  let feed = $state.raw<Feed | null>(null);
  $effect(() => {
    const client = dash.connection.client;
    const f = filter();
    if (!client) return;
    const created = untrack(() => new Feed(dash.overrides, client, f, { share: dash.connection.share }));
    feed = created;
    return () => created.close();
  });
  return {
    get current() {
      return feed;
    },
  };
}
