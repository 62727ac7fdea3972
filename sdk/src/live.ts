// A live view: a snapshot of a filtered list and its counts, kept current from
// notificationEvents. It resumes from its last cursor after any drop (backoff with jitter) and
// refetches the snapshot only when it cannot resume (no cursor yet, or the cursor is refused).
// Protocol: docs/event-stream.md.
import { backoffDelay, type BackoffOptions } from "./backoff.ts";
import type { HeraldClient } from "./client.ts";
import { HeraldValidationError, type HeraldError } from "./errors.ts";
import { isUnseen, matchesFilter, newestFirst, supersedes } from "./filter.ts";
import type { Counts, Notification, NotificationEvent, NotificationFilter } from "./types.ts";
import { UiEffectsDispatcher } from "./ui-effects.ts";

export type ConnectionState = "connecting" | "live" | "reconnecting" | "offline";

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
  backoff: BackoffOptions;
  /** After this many failed reconnects in a row the state says "offline" (it keeps trying). */
  offlineAfter: number;
  uiEffects: UiEffectsDispatcher;
}

type Listener = (state: LiveState) => void;

/** What a live view reads: a HeraldClient, or anything that answers the same calls. */
export type LiveSource = Pick<HeraldClient, "dismissals" | "eventsCursor" | "events" | "page" | "counts">;

export class LiveView {
  readonly uiEffects: UiEffectsDispatcher;
  private readonly options: LiveViewOptions;
  private readonly known = new Map<string, Notification>();
  private readonly listeners = new Set<Listener>();
  private state: LiveState = { items: [], counts: { total: 0, unseen: 0 }, connection: "connecting", error: null };
  private serverCounts: Counts = { total: 0, unseen: 0 };
  private complete = true;
  private cursor: string | null = null;
  /** Resuming needs both a snapshot and the cursor of the last event applied to it. */
  private hasSnapshot = false;
  private unsubscribe: (() => void) | null = null;
  private attempt = 0;
  private generation = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private countsTimer: ReturnType<typeof setTimeout> | null = null;
  private started = false;
  private closed = false;
  private readonly stopDismissals: () => void;

  constructor(
    private readonly client: LiveSource,
    private readonly filter: NotificationFilter,
    options: Partial<LiveViewOptions>,
  ) {
    this.options = {
      maxItems: 500,
      backoff: { initialMs: 250, maxMs: 10_000 },
      offlineAfter: 5,
      uiEffects: new UiEffectsDispatcher(),
      ...options,
    };
    this.uiEffects = this.options.uiEffects;
    this.stopDismissals = client.dismissals.onChange(() => this.emit());
  }

  /** Listens to every state; the listener is called at once with the current one. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    listener(this.state);
    if (!this.started) {
      this.started = true;
      void this.connect();
    }
    return () => this.listeners.delete(listener);
  }

  get current(): LiveState {
    return this.state;
  }

  /** The cursor of the last event applied (null before the first). */
  get lastCursor(): string | null {
    return this.cursor;
  }

  /** Reloads the snapshot now (a consumer's explicit refresh). */
  async refresh(): Promise<void> {
    this.hasSnapshot = false;
    this.cursor = null;
    await this.connect();
  }

  close(): void {
    this.closed = true;
    this.generation++;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    if (this.countsTimer) clearTimeout(this.countsTimer);
    this.stopDismissals();
    this.listeners.clear();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    // A refresh() while a reconnect is scheduled: this attempt replaces that one.
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
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
      this.unsubscribe = this.client.events(this.cursor, {
        next: (event) => {
          if (generation !== this.generation) return;
          if (!snapshotDone) buffered.push(event);
          else this.applyEvent(event);
        },
        error: (error) => this.dropped(generation, error),
        complete: () => this.dropped(generation, new Error("The event stream ended")),
      });
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
      this.attempt = 0;
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
    // A refused cursor cannot be resumed: start again from a fresh snapshot.
    if (error instanceof HeraldValidationError || /\b400\b/.test(error.message)) {
      this.cursor = null;
      this.hasSnapshot = false;
    }
    this.attempt++;
    this.setConnection(this.attempt > this.options.offlineAfter ? "offline" : "reconnecting", error);
    const delay = backoffDelay(this.attempt, this.options.backoff);
    this.timer = setTimeout(() => void this.connect(), delay);
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
      ? { total: matching.length, unseen: matching.filter(isUnseen).length }
      : this.serverCounts;
    this.state = { ...this.state, items: matching.slice(0, this.options.maxItems), counts };
    for (const listener of this.listeners) listener(this.state);
  }
}
