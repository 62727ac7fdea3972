// @herald/sdk/react: hooks over a live view, built on useSyncExternalStore so a render never
// tears between two states of one view. A view is made when the first component subscribes and
// ended when the last one unmounts; the filter is compared by value, so an inline object literal
// does not restart the stream on every render.
import { createElement, type ReactElement, useEffect, useMemo, useSyncExternalStore } from "react";
import type { PersonClient } from "./person-client.ts";
import type { LiveState, LiveView, LiveViewOptions } from "./live.ts";
import type { Counts, NotificationFilter } from "./types.ts";

const INITIAL: LiveState = { items: [], counts: { total: 0, unseen: 0, unread: 0 }, connection: "connecting", error: null };

/** One lazily made view and its latest state, in the shape useSyncExternalStore reads. */
class ViewStore {
  private view: LiveView | null = null;
  private stopView: (() => void) | null = null;
  private state: LiveState = INITIAL;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly client: PersonClient,
    private readonly filter: NotificationFilter,
    private readonly options: Partial<LiveViewOptions>,
  ) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (!this.view) {
      const view = this.client.live(this.filter, this.options);
      this.view = view;
      this.stopView = view.subscribe((state) => {
        this.state = state;
        for (const l of this.listeners) l();
      });
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0 || !this.view) return;
      this.stopView?.();
      this.view.close();
      this.view = null;
      this.stopView = null;
    };
  };

  readonly snapshot = (): LiveState => this.state;

  refresh(): Promise<void> {
    return this.view?.refresh() ?? Promise.resolve();
  }
}

function useViewStore(client: PersonClient, filter: NotificationFilter, options: Partial<LiveViewOptions>): ViewStore {
  const filterKey = JSON.stringify(filter);
  // The options are read when the view is made; changing them later needs a new client or filter.
  return useMemo(() => new ViewStore(client, filter, options), [client, filterKey]);
}

export interface HeraldNotifications extends LiveState {
  /** Reloads the snapshot now (after a sign-in, or an `unauthorized` state once the token is renewed). */
  refresh(): Promise<void>;
}

/** The person's notifications matching `filter`, live: items, counts, connection and last error. */
export function useHeraldNotifications(client: PersonClient, filter: NotificationFilter = {}, options: Partial<LiveViewOptions> = {}): HeraldNotifications {
  const store = useViewStore(client, filter, options);
  const state = useSyncExternalStore(store.subscribe, store.snapshot, store.snapshot);
  return useMemo(() => ({ ...state, refresh: () => store.refresh() }), [state, store]);
}

/** Counts for `filter` (total, unseen, unread), live; re-renders only when a number changes. */
export function useHeraldCounts(client: PersonClient, filter: NotificationFilter = {}, options: Partial<LiveViewOptions> = {}): Counts {
  const store = useViewStore(client, filter, options);
  const total = useSyncExternalStore(
    store.subscribe,
    () => store.snapshot().counts.total,
    () => store.snapshot().counts.total,
  );
  const unseen = useSyncExternalStore(
    store.subscribe,
    () => store.snapshot().counts.unseen,
    () => store.snapshot().counts.unseen,
  );
  const unread = useSyncExternalStore(
    store.subscribe,
    () => store.snapshot().counts.unread,
    () => store.snapshot().counts.unread,
  );
  return useMemo(() => ({ total, unseen, unread }), [total, unseen, unread]);
}

export interface InboxProps {
  /** The GraphQL URL. */
  server: string;
  /** A person token (herald_pt_…). */
  token: string;
  className?: string;
}

/**
 * The inbox of `<herald-inbox>` in a React tree: the same element (the dashboard's components in
 * a shadow root), defined on first render in the browser so that importing this module stays
 * safe on a server.
 */
export function Inbox({ server, token, className }: InboxProps): ReactElement {
  useEffect(() => {
    void import("./inbox-element.ts");
  }, []);
  return createElement("herald-inbox", { server, token, class: className });
}
