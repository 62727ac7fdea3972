// The client lifecycle: one SDK client through the SvelteKit proxy, the main live view, the
// clock that keeps relative times right, and whether the person's sign-in still holds.
import { createHeraldClient, HeraldError, type HeraldClient, type LiveState, type ShareOptions } from "@herald/sdk";
import { LiveList } from "../live.svelte";
import { mountConnectionEffects } from "./ui-effects";

/** The main view holds every active record the badge, banners, modal and overview need. */
const MAIN_VIEW_ITEMS = 500;
const TICK_MS = 15_000;

export class Connection {
  client = $state.raw<HeraldClient | null>(null);
  main = $state.raw<LiveList | null>(null);
  /** Ticks every 15 s so relative times and snooze filters stay right. */
  now = $state(Date.now());
  /** The person's token stopped working (revoked or expired). */
  signedOut = $state(false);
  /**
   * What every stream of this page passes as the SDK's `share` (null without a person id): the
   * main view, the drawer and page feeds and the preferences all ride on one event stream and one
   * preferences stream for all the tabs of this origin signed in as this person.
   */
  share: ShareOptions | null = null;

  /** Browser only: connects, hands every main-view state to `onMainState`, returns the cleanup. */
  start(onMainState: (state: LiveState) => void, personId: string | null = null): () => void {
    this.share = personId ? { key: personId } : null;
    const client = createHeraldClient({
      // No token: the browser never holds it (httpOnly cookie); the /api proxy adds it.
      url: new URL("/api/graphql", location.origin).href,
      // Every live view of this tab shares one SSE connection (graphql-sse single-connection mode).
      singleConnection: true,
    });
    this.client = client;
    this.main = new LiveList(client, {}, { maxItems: MAIN_VIEW_ITEMS, share: this.share }, (state) => {
      // A change just arrived: "now" moves with it, so a fresh record never reads as from the future.
      this.now = Date.now();
      this.noteFailure(state.error);
      onMainState(state);
    });
    const stopEffects = mountConnectionEffects(client, async () => this.main?.view.refresh());
    const tick = setInterval(() => (this.now = Date.now()), TICK_MS);
    return () => {
      stopEffects();
      clearInterval(tick);
      this.main?.close();
      this.main = null;
      client.close();
      this.client = null;
    };
  }

  get state() {
    return this.main?.state.connection ?? "connecting";
  }

  /** Any failed call may be the first sign that the token was revoked. */
  noteFailure(error: unknown): void {
    if (error instanceof HeraldError && error.code === "UNAUTHENTICATED") this.signedOut = true;
  }
}
