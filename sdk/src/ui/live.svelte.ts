// Svelte-side wrappers around the SDK's live store (@herald/sdk/svelte): its state as a rune,
// and a Feed that adds cursor pages older than the live window for infinite scroll.
import {
  type PersonClient,
  type LiveState,
  type LiveView,
  type LiveViewOptions,
  type Notification,
  type NotificationFilter,
  newestFirst,
  type ShareOptions,
} from "@herald/sdk";
import { isLoading, liveStore, type LiveStore } from "@herald/sdk/svelte";
import { SvelteMap } from "svelte/reactivity";
import type { Overrides } from "./dashboard/overrides.svelte.ts";
import { sentenceFor } from "./errors.ts";

const EMPTY_STATE: LiveState = { items: [], counts: { total: 0, unseen: 0, unread: 0 }, connection: "connecting", error: null };

/** Records the live window of a Feed keeps current; older ones come from cursor pages. */
const LIVE_WINDOW = 50;
/** How long a record that ended while shown stays on screen, ended, before it leaves the list. */
const ENDED_LINGER_MS = 2_500;
/** Size of each older page fetched while scrolling. */
const OLDER_PAGE = 25;

/** The SDK's live store, its latest state mirrored into a rune for class-based state. */
export class LiveList {
  state = $state.raw<LiveState>(EMPTY_STATE);
  readonly store: LiveStore;
  private readonly stop: () => void;

  constructor(
    client: PersonClient,
    readonly filter: NotificationFilter,
    options: Partial<LiveViewOptions> = {},
    onState?: (state: LiveState) => void,
  ) {
    this.store = liveStore(client, filter, options);
    this.stop = this.store.subscribe((state) => {
      this.state = state;
      onState?.(state);
    });
  }

  get view(): LiveView {
    return this.store.view;
  }

  /** True until the first snapshot has arrived (or failed). */
  get loading(): boolean {
    return isLoading(this.state);
  }

  close(): void {
    this.stop();
    this.store.close();
  }
}

/**
 * A filtered list for the drawer and the session and engagement pages. The newest LIVE_WINDOW
 * records come from a live view and stay current; scrolling further loads older cursor pages
 * (SDK page()/nextCursor). Older pages are a snapshot: the person's own actions update them
 * (through the overrides), other changes show after reopening the list.
 */
export class Feed {
  readonly live: LiveList;
  older = $state.raw<Notification[]>([]);
  started = $state(false);
  loading = $state(false);
  loadError = $state<string | null>(null);
  /** Records kept on screen after they stopped matching (the unseen tab keeps what it showed). */
  readonly pinned = new SvelteMap<string, Notification>();
  private cursor: string | null = null;
  /** Ids the list returned last time (plain, not state: written while the list is read). */
  private shown = new Set<string>();
  /** When (page clock) each shown record was first seen ended. */
  private readonly endedSince = new Map<string, number>();
  /** Moves on when the ended records are let go, so the list is worked out again. */
  private forgotten = $state(0);
  private readonly keep?: (notification: Notification, now: Date) => boolean;

  constructor(
    private readonly overrides: Overrides,
    private readonly client: PersonClient,
    readonly filter: NotificationFilter,
    options: {
      /** Replaces the filter check on the effective record (e.g. "snoozed into the future"). */
      keep?: (notification: Notification, now: Date) => boolean;
      /** The person's shared event stream (the connection's `share`): no stream of its own. */
      share?: ShareOptions | null;
    } = {},
  ) {
    this.keep = options.keep;
    this.live = new LiveList(client, filter, { maxItems: LIVE_WINDOW, share: options.share ?? null });
  }

  get items(): Notification[] {
    void this.forgotten;
    const items = this.withEnded(this.listed());
    this.shown = new Set(items.map((n) => n.id));
    return items;
  }

  /**
   * A record its producer resolved or expired while this list showed it stays a moment, ended
   * (its card says so and its buttons are disabled), then leaves: a card vanishing under the
   * person's eyes reads as a glitch, one staying for good clutters the list. A dismissal (here or
   * elsewhere) removes it at once as before.
   */
  private withEnded(items: Notification[]): Notification[] {
    if (this.shown.size === 0 || this.filter.includeTerminal || this.filter.statuses?.length) return items;
    const ids = new Set(items.map((n) => n.id));
    const ended: Notification[] = [];
    const now = Date.now();
    for (const id of this.shown) {
      if (ids.has(id)) continue;
      const latest = this.live.view.latest(id) ?? this.older.find((n) => n.id === id);
      const current = latest && this.overrides.resolve(latest);
      if (!current || (current.status !== "RESOLVED" && current.status !== "EXPIRED") || this.overrides.gone.has(id)) continue;
      let since = this.endedSince.get(id);
      if (since === undefined) {
        since = now;
        this.endedSince.set(id, since);
        // Worked out again when its moment is over (on the page's clock).
        setTimeout(() => this.forgotten++, ENDED_LINGER_MS);
      }
      if (now - since < ENDED_LINGER_MS) ended.push(current);
    }
    return ended.length ? items.concat(ended).sort(newestFirst) : items;
  }

  /** Lets go of the ended records kept on screen (the list was closed). */
  forgetEnded(): void {
    this.shown = new Set();
    this.endedSince.clear();
    this.forgotten++;
  }

  private listed(): Notification[] {
    const live = this.live.state.items;
    let merged = live;
    if (this.started) {
      // The live window is authoritative down to its oldest record; the pages below it.
      const last = live.at(-1);
      const ids = new Set(live.map((n) => n.id));
      merged = live.concat(this.older.filter((o) => !ids.has(o.id) && (!last || newestFirst(last, o) < 0)));
    }
    const shown = this.overrides.visible(merged, this.filter, this.keep);
    if (this.pinned.size === 0) return shown;
    const ids = new Set(shown.map((n) => n.id));
    const extra = [...this.pinned.values()].map((n) => this.overrides.resolve(n)).filter((n) => !ids.has(n.id) && this.overrides.stillActive(n));
    return extra.length ? shown.concat(extra).sort(newestFirst) : shown;
  }

  /** Whether the server has records beyond what is loaded. */
  get hasMore(): boolean {
    if (this.started) return this.cursor !== null;
    const { items, counts } = this.live.state;
    return items.length >= LIVE_WINDOW && counts.total > items.length;
  }

  async loadMore(): Promise<void> {
    if (this.loading || !this.hasMore) return;
    const client = this.client;
    this.loading = true;
    this.loadError = null;
    try {
      if (!this.started) {
        // The live view holds the first LIVE_WINDOW records; this page finds the cursor after them.
        const head = await client.page({ first: LIVE_WINDOW, filter: this.filter });
        this.older = head.items;
        this.cursor = head.nextCursor;
        this.started = true;
      }
      if (this.cursor !== null) {
        const page = await client.page({ first: OLDER_PAGE, after: this.cursor, filter: this.filter });
        this.older = this.older.concat(page.items);
        this.cursor = page.nextCursor;
      }
    } catch (error) {
      this.loadError = sentenceFor(error);
    } finally {
      this.loading = false;
    }
  }

  async retry(): Promise<void> {
    if (this.live.state.error) await this.live.view.refresh();
    if (this.loadError) await this.loadMore();
  }

  close(): void {
    this.live.close();
  }
}
