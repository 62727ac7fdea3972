// The client lifecycle: one SDK client (through the dashboard's proxy, or straight to a server
// with a person token in <herald-inbox>), the main live view, the clock that keeps relative
// times right, and whether the person's sign-in still holds.
import { createPersonClient, HeraldError, type PersonClient, type LiveState, type NotificationFilter, type ShareOptions } from "@herald/sdk";
import { SvelteSet } from "svelte/reactivity";
import { Clock } from "../clock.svelte.ts";
import { LiveList } from "../live.svelte.ts";
import { sameFilter } from "./reader-filter.ts";

/** Where the client connects and what the host page reloads for ui effects. */
export interface ConnectionOptions {
  /** The GraphQL URL. */
  url: string;
  /** A person token; none where a proxy adds it (the dashboard keeps it in an httpOnly cookie). */
  token?: string;
  /** The host page's consumers of ui effects, living as long as the connection; returns their cleanup. */
  mountEffects?: (client: PersonClient, reloadMainView: () => Promise<void>) => () => void;
}

/** The main view holds every active record the badge, banners, modal and overview need. */
const MAIN_VIEW_ITEMS = 500;

export class Connection {
  client = $state.raw<PersonClient | null>(null);
  main = $state.raw<LiveList | null>(null);
  /** The page's clock (clock.svelte.ts): ticks, and wakes when a shown deadline passes. */
  readonly clock = new Clock();
  /** When the main view last had the server's word (live), for "last synced 3 minutes ago". */
  lastSynced = $state<number | null>(null);
  /** The person's token stopped working (revoked or expired). */
  signedOut = $state(false);
  /**
   * The person's reader controls as a filter (reader-filter.ts): the main view and the drawer
   * list only what the stream may push, so what they show and count agrees live and on reload.
   */
  filter = $state.raw<NotificationFilter>({});
  /** Moves on each time the main view reloaded to catch up with held records (the drawer follows). */
  resyncs = $state(0);
  /** Records that came in by such a reload while quiet mode held them: listed and counted, never popped up. */
  readonly held = new SvelteSet<string>();
  private onMainState: (state: LiveState) => void = () => undefined;
  /**
   * What every stream of this page passes as the SDK's `share` (null without a person id): the
   * main view, the drawer and page feeds and the preferences all ride on one event stream and one
   * preferences stream for all the tabs of this origin signed in as this person.
   */
  share: ShareOptions | null = null;

  /** Browser only: connects, hands every main-view state to `onMainState`, returns the cleanup. */
  private options: ConnectionOptions = { url: "/graphql" };

  /** Where to connect (before `start`). */
  configure(options: ConnectionOptions): void {
    this.options = options;
  }

  start(onMainState: (state: LiveState) => void, personId: string | null = null, filter: NotificationFilter = {}): () => void {
    this.share = personId ? { key: personId } : null;
    this.filter = filter;
    this.onMainState = onMainState;
    const client = createPersonClient({
      url: this.options.url,
      ...(this.options.token ? { token: this.options.token } : {}),
      // Every live view of this tab shares one SSE connection (graphql-sse single-connection mode).
      singleConnection: true,
    });
    this.client = client;
    this.main = this.mainView(client);
    const stopEffects = this.options.mountEffects?.(client, async () => this.main?.view.refresh()) ?? (() => undefined);
    const stopClock = this.clock.start();
    return () => {
      stopEffects();
      stopClock();
      this.main?.close();
      this.main = null;
      client.close();
      this.client = null;
    };
  }

  /** The reader controls changed (here, in another tab or device): the main view follows them. */
  useFilter(filter: NotificationFilter): void {
    const client = this.client;
    if (sameFilter(filter, this.filter)) return;
    this.filter = filter;
    if (!client || !this.main) return;
    this.main.close();
    this.main = this.mainView(client);
  }

  /** Reloads the main view's snapshot (records held back by quiet mode are in it); the drawer follows. */
  async resync(): Promise<void> {
    const main = this.main;
    if (!main) return;
    const known = new Set(main.state.items.map((n) => n.id));
    await main.view.refresh();
    for (const n of main.state.items) if (!known.has(n.id)) this.held.add(n.id);
    this.resyncs++;
  }

  /** Whether a banner or modal may show this record now (what quiet mode held stays in the lists only). */
  mayPopUp(id: string, quietMode: boolean): boolean {
    return !quietMode || !this.held.has(id);
  }

  private mainView(client: PersonClient): LiveList {
    return new LiveList(client, this.filter, { maxItems: MAIN_VIEW_ITEMS, share: this.share }, (state) => {
      // A change just arrived: "now" moves with it, so a fresh record never reads as from the future.
      this.clock.sync();
      if (state.connection === "live") this.lastSynced = this.clock.now;
      this.noteFailure(state.error);
      this.onMainState(state);
    });
  }

  /** The clock's present (ms). */
  get now(): number {
    return this.clock.now;
  }

  get state() {
    return this.main?.state.connection ?? "connecting";
  }

  /** Any failed call may be the first sign that the token was revoked. */
  noteFailure(error: unknown): void {
    if (error instanceof HeraldError && error.code === "UNAUTHENTICATED") this.signedOut = true;
  }
}
