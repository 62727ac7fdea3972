// A live view: a snapshot of a filtered list and its counts, kept current from
// notificationEvents. It resumes from its last cursor after any drop (backoff with jitter) and
// refetches the snapshot only when it cannot resume (no cursor yet, or the cursor is refused).
// It holds a stream only while someone listens and the page is visible, and gives up on a
// credential the server refused (retrying a revoked token would only knock forever).
// Protocol: docs/event-stream.md.
import type { ActionResponses } from "./action-responses.ts";
import type { BackoffOptions } from "./backoff.ts";
import type { PersonClient } from "./person-client.ts";
import { HeraldForbiddenError, HeraldUnauthenticatedError, HeraldValidationError, type HeraldError } from "./errors.ts";
import { browserEnvironment, type LiveEnvironment } from "./environment.ts";
import { isUnread, isUnseen, matchesFilter, newestFirst, supersedes } from "./filter.ts";
import { DEFAULT_RECONNECT, type ReconnectClock, Reconnector, systemClock } from "./reconnect.ts";
import { type EventSource, sharedEvents, type ShareOptions, StreamResyncError } from "./shared-stream.ts";
import type { Counts, Notification, NotificationEvent, NotificationFilter } from "./types.ts";
import { UiEffectsDispatcher } from "./ui-effects.ts";

/**
 * `paused`: the page is hidden (or no one listens); it resumes from its cursor when visible.
 * `unauthorized`: the credential was refused (401, revoked, or of the wrong kind); the view stops
 * retrying until `refresh()` (after a sign-in, or once a token function has a new token).
 */
export type ConnectionState = "connecting" | "live" | "reconnecting" | "offline" | "paused" | "unauthorized";

export interface LiveState {
  items: Notification[];
  counts: Counts;
  connection: ConnectionState;
  /** The last failure, kept until the view is live again. */
  error: HeraldError | Error | null;
}

export interface LiveViewOptions {
  /** Records loaded and kept (newest first); counts are exact while everything fits. */
  maxItems: number;
  /** Reconnect delays: exponential with full jitter, one attempt per step, capped at `maxMs` (30 s). */
  backoff: BackoffOptions;
  /** A stream open this long without failing resets the backoff (an event arriving does at once). */
  stableMs: number;
  /** Timers and randomness for reconnects (tests step through them). */
  clock: ReconnectClock;
  /** After this many failed reconnects in a row the state says "offline" (it keeps trying). */
  offlineAfter: number;
  uiEffects: UiEffectsDispatcher;
  /** Told of every record observed, so answers to this client's own actions reach it (null: none). */
  actionResponses: ActionResponses | null;
  /**
   * How long the page may be hidden before the stream is let go (ms); `false` keeps it open.
   * A short look at another tab keeps the stream; a tab left in the background does not hold one.
   */
  pauseWhenHiddenMs: number | false;
  /** Where visibility and `online` come from; the browser's globals by default, none elsewhere. */
  environment: LiveEnvironment | null;
  /**
   * Feeds this view from the one event stream that all views with this key share, in this tab
   * and the other tabs of the origin (shared-stream.ts); null (the default) keeps a stream per view.
   */
  share: ShareOptions | null;
}

type Listener = (state: LiveState) => void;

/** True until the first snapshot has arrived (or failed). */
export function isLoading(state: LiveState): boolean {
  return state.connection === "connecting" && state.items.length === 0 && state.error === null;
}

/** What a live view reads: a PersonClient, or anything that answers the same calls. */
export type LiveSource = Pick<PersonClient, "dismissals" | "eventsCursor" | "events" | "page" | "counts">;

export class LiveView {
  readonly uiEffects: UiEffectsDispatcher;
  private readonly options: LiveViewOptions;
  private readonly known = new Map<string, Notification>();
  private readonly listeners = new Set<Listener>();
  private state: LiveState = { items: [], counts: { total: 0, unseen: 0, unread: 0 }, connection: "connecting", error: null };
  private serverCounts: Counts = { total: 0, unseen: 0, unread: 0 };
  private complete = true;
  private cursor: string | null = null;
  /** Resuming needs both a snapshot and the cursor of the last event applied to it. */
  private hasSnapshot = false;
  private unsubscribe: (() => void) | null = null;
  private readonly reconnect: Reconnector;
  private generation = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private countsTimer: ReturnType<typeof setTimeout> | null = null;
  private started = false;
  private closed = false;
  private hiddenTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly stopDismissals: () => void;
  private readonly stopEnvironment: () => void;
  private readonly events: EventSource;

  constructor(
    private readonly client: LiveSource,
    private readonly filter: NotificationFilter,
    options: Partial<LiveViewOptions>,
  ) {
    this.options = {
      maxItems: 500,
      backoff: { initialMs: DEFAULT_RECONNECT.initialMs, maxMs: DEFAULT_RECONNECT.maxMs },
      stableMs: DEFAULT_RECONNECT.stableMs,
      clock: systemClock,
      offlineAfter: 5,
      uiEffects: new UiEffectsDispatcher(),
      actionResponses: null,
      pauseWhenHiddenMs: 10_000,
      environment: options.environment === undefined ? browserEnvironment() : options.environment,
      share: null,
      ...options,
    };
    this.events = this.options.share ? sharedEvents(client, this.options.share) : (after, sink) => client.events(after, sink);
    this.uiEffects = this.options.uiEffects;
    this.reconnect = new Reconnector({ ...this.options.backoff, stableMs: this.options.stableMs }, this.options.clock);
    this.stopDismissals = client.dismissals.onChange(() => this.emit());
    this.stopEnvironment = this.watchEnvironment();
  }

  /**
   * Listens to every state; the listener is called at once with the current one. The first
   * listener starts the stream and the last one to leave stops it (the snapshot and cursor are
   * kept, so the next listener resumes without a gap).
   */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    listener(this.state);
    this.start();
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
      this.suspend("connecting");
    };
  }

  /** Whether a stream is held or being (re)established. */
  get active(): boolean {
    return this.started;
  }

  /** The newest record this view has observed under `id`, whether it still matches or not (one that just ended). */
  latest(id: string): Notification | undefined {
    return this.known.get(id);
  }

  get current(): LiveState {
    return this.state;
  }

  /** The cursor of the last event applied (null before the first). */
  get lastCursor(): string | null {
    return this.cursor;
  }

  /**
   * Changes how long the page may be hidden before the stream is let go; `false` keeps it open
   * (a page that shows system notifications while in the background needs its stream).
   */
  setPauseWhenHidden(pauseWhenHiddenMs: number | false): void {
    this.options.pauseWhenHiddenMs = pauseWhenHiddenMs;
    if (pauseWhenHiddenMs !== false) return;
    if (this.hiddenTimer) clearTimeout(this.hiddenTimer);
    this.hiddenTimer = null;
    this.start();
  }

  /** Reloads the snapshot now (a consumer's explicit refresh). */
  async refresh(): Promise<void> {
    this.hasSnapshot = false;
    this.cursor = null;
    this.reconnect.reset();
    this.started = this.listeners.size > 0;
    await this.connect();
  }

  close(): void {
    this.closed = true;
    this.suspend(this.state.connection);
    this.stopDismissals();
    this.stopEnvironment();
    this.listeners.clear();
  }

  private start() {
    // After a refused credential only refresh() tries again: a new listener or a visible page
    // does not make the token valid.
    if (this.started || this.closed || this.listeners.size === 0 || this.state.connection === "unauthorized") return;
    if (this.options.environment?.hidden() && this.options.pauseWhenHiddenMs !== false) return;
    this.started = true;
    if (this.state.connection === "paused") this.setConnection("reconnecting", this.state.error);
    void this.connect();
  }

  /** Lets the stream go, keeping the snapshot and cursor for a later resume. */
  private suspend(connection: ConnectionState) {
    this.started = false;
    this.generation++;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.reconnect.cancel();
    if (this.countsTimer) clearTimeout(this.countsTimer);
    this.countsTimer = null;
    if (this.state.connection !== connection && this.state.connection !== "unauthorized") this.setConnection(connection, this.state.error);
  }

  private watchEnvironment(): () => void {
    const environment = this.options.environment;
    if (!environment) return () => undefined;
    const clearHidden = () => {
      if (this.hiddenTimer) clearTimeout(this.hiddenTimer);
      this.hiddenTimer = null;
    };
    const stopVisibility = environment.onVisibilityChange(() => {
      const pauseAfter = this.options.pauseWhenHiddenMs;
      if (this.closed || pauseAfter === false) return;
      clearHidden();
      if (!environment.hidden()) return this.start();
      this.hiddenTimer = setTimeout(() => {
        this.hiddenTimer = null;
        if (environment.hidden() && this.options.pauseWhenHiddenMs !== false && this.state.connection !== "unauthorized") this.suspend("paused");
      }, pauseAfter);
    });
    // Back online: waiting out the backoff would only leave the person behind.
    const stopOnline = environment.onOnline(() => {
      if (this.closed || !this.started || !this.reconnect.waiting) return;
      this.reconnect.reset();
      void this.connect();
    });
    return () => {
      clearHidden();
      stopVisibility();
      stopOnline();
    };
  }

  private async connect(): Promise<void> {
    if (this.closed || !this.started) return;
    // A refresh() while a reconnect is scheduled: this attempt replaces that one.
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.reconnect.cancel();
    const generation = ++this.generation;
    this.unsubscribe?.();
    const resuming = this.hasSnapshot && this.cursor !== null;
    const buffered: NotificationEvent[] = [];
    let snapshotDone = resuming;
    try {
      // Fresh start: take the stream's position before reading the snapshot and subscribe from
      // it, so whatever commits in between is replayed (and de-duplicated), never lost.
      if (!resuming) this.cursor = await this.client.eventsCursor();
      if (generation !== this.generation) return;
      const subscribed = this.events(
        this.cursor,
        {
          next: (event) => {
            if (generation !== this.generation) return;
            this.reconnect.succeeded();
            if (!snapshotDone) buffered.push(event);
            else this.applyEvent(event);
          },
          error: (error) => this.dropped(generation, error),
          complete: () => this.dropped(generation, new Error("The event stream ended")),
        },
        { fresh: !resuming },
      );
      // A shared stream may refuse at once (StreamResyncError); the retry is then already under way.
      if (generation !== this.generation) return subscribed();
      this.unsubscribe = subscribed;
      if (!resuming) {
        await this.loadSnapshot();
        if (generation !== this.generation) return;
        snapshotDone = true;
        for (const event of buffered) this.applyEvent(event);
      } else if (!this.complete) {
        // (A complete view counts its own records; only a partial one needs the server's.)
        this.serverCounts = await this.client.counts(this.filter);
      }
      if (generation !== this.generation) return;
      // Subscribed is not yet connected: a refused stream fails right after this, and only an
      // event or a stream that stays open resets the backoff.
      this.reconnect.opened();
      this.setConnection("live", null);
      this.client.dismissals.retryFailed();
    } catch (error) {
      this.dropped(generation, error as Error);
    }
  }

  private async loadSnapshot() {
    const records: Notification[] = [];
    let after: string | null = null;
    let total = 0;
    do {
      const page = await this.client.page({ first: 100, after, filter: this.filter });
      records.push(...page.items);
      total = page.totalCount;
      after = page.nextCursor;
    } while (after !== null && records.length < this.options.maxItems);
    this.complete = records.length >= total;
    if (!this.complete) this.serverCounts = await this.client.counts(this.filter);
    this.hasSnapshot = true;
    this.known.clear();
    for (const record of records) this.observe(record);
    this.emit();
  }

  private applyEvent(event: NotificationEvent) {
    this.cursor = event.cursor;
    if (this.observe(event.notification)) {
      if (!this.complete) this.scheduleCountsRefresh();
      this.emit();
    }
  }

  /** Takes a record if it is newer than what is known; returns whether anything changed. */
  private observe(notification: Notification): boolean {
    this.client.dismissals.observe(notification);
    this.uiEffects.observe(notification);
    this.options.actionResponses?.observe(notification);
    if (!supersedes(notification, this.known.get(notification.id))) return false;
    this.known.set(notification.id, notification);
    return true;
  }

  private scheduleCountsRefresh() {
    if (this.countsTimer) return;
    this.countsTimer = setTimeout(async () => {
      this.countsTimer = null;
      try {
        this.serverCounts = await this.client.counts(this.filter);
        this.emit();
      } catch {
        // the next event or reconnect refreshes them
      }
    }, 200);
  }

  private dropped(generation: number, error: Error) {
    if (generation !== this.generation || this.closed) return;
    this.generation++;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (error instanceof StreamResyncError) {
      // Not a failure: the shared stream cannot replay from this cursor. Reload the snapshot now.
      this.cursor = null;
      this.hasSnapshot = false;
      this.timer = setTimeout(() => void this.connect(), 0);
      return;
    }
    if (error instanceof HeraldUnauthenticatedError || error instanceof HeraldForbiddenError) {
      // No retry can cure a refused credential; a reconnect loop would only knock forever.
      this.started = false;
      this.setConnection("unauthorized", error);
      return;
    }
    // A refused cursor cannot be resumed (the transport maps a 400 refusal to a validation
    // error by its status): start again from a fresh snapshot.
    if (error instanceof HeraldValidationError) {
      this.cursor = null;
      this.hasSnapshot = false;
    }
    this.reconnect.failed(() => void this.connect());
    this.setConnection(this.reconnect.attempt > this.options.offlineAfter ? "offline" : "reconnecting", error);
  }

  private setConnection(connection: ConnectionState, error: Error | null) {
    this.state = { ...this.state, connection, error };
    this.emit();
  }

  private emit() {
    const now = new Date();
    // What this view shows now keeps showing past a TTL deadline (a presentation deadline for new views).
    const shown = new Set(this.state.items.map((n) => n.id));
    const matching = [...this.known.values()]
      .filter((n) => matchesFilter(n, this.filter, now, { shown: shown.has(n.id) }) && !this.client.dismissals.isHidden(n))
      .sort(newestFirst);
    const counts = this.complete
      ? { total: matching.length, unseen: matching.filter(isUnseen).length, unread: matching.filter(isUnread).length }
      : this.serverCounts;
    this.state = { ...this.state, items: matching.slice(0, this.options.maxItems), counts };
    for (const listener of this.listeners) listener(this.state);
  }
}
