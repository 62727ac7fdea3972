// @herald/sdk/svelte: a live view and its counts as Svelte stores. Only the store contract
// (`subscribe`) is used, so they work with `$store` in Svelte 4 and 5 alike. The stream is held
// while the store has subscribers: the last one to leave lets it go, the next resumes from the
// view's cursor.
import { derived, type Readable, readable } from "svelte/store";
import type { PersonClient } from "./person-client.ts";
import type { LiveState, LiveView, LiveViewOptions } from "./live.ts";

export { isLoading } from "./live.ts";
import type { Counts, Notification, NotificationFilter } from "./types.ts";

export interface LiveStore extends Readable<LiveState> {
  /** The view behind the store (refresh, UI effects, lastCursor). */
  readonly view: LiveView;
  /** The records, newest first. */
  readonly items: Readable<Notification[]>;
  /** Counts for the view's filter: exact while everything fits, else the server's. */
  readonly counts: Readable<Counts>;
  /** Ends the view for good (a stopped store only pauses it). */
  close(): void;
}

/** A store over an existing view, or over a new `client.live(filter, options)`. */
export function liveStore(source: PersonClient | LiveView, filter: NotificationFilter = {}, options: Partial<LiveViewOptions> = {}): LiveStore {
  const view = isView(source) ? source : source.live(filter, options);
  const state = readable<LiveState>(view.current, (set) => view.subscribe(set));
  return {
    subscribe: state.subscribe,
    view,
    items: derived(state, ($state) => $state.items),
    counts: countsStore(state),
    close: () => view.close(),
  };
}

/** Counts only; subscribers are told only when a number changes, not on every event. */
export function countsStore(live: Readable<LiveState>): Readable<Counts> {
  let last: Counts | null = null;
  return derived(live, ($state, set) => {
    const { total, unseen, unread } = $state.counts;
    if (last && last.total === total && last.unseen === unseen && last.unread === unread) return;
    last = { total, unseen, unread };
    set(last);
  });
}

function isView(source: PersonClient | LiveView): source is LiveView {
  return typeof (source as LiveView).subscribe === "function" && "current" in source;
}
