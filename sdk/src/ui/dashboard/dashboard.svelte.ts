// The dashboard's state in the browser, assembled from its rooms: the client lifecycle
// (connection), the person's action results (overrides), notices and announcements (messages),
// the person (viewer) and what they do (actions). What is left here is only what several
// rooms feed: the active list and the badge, and which layer of the page is on top.
import { isUnread, isUnseen, type LiveState, type Notification, type Preferences } from "@herald/sdk";
import { getContext, setContext } from "svelte";
import { ActionDisplays } from "./action-displays.svelte.ts";
import { PersonActions } from "./actions.svelte.ts";
import { Connection, type ConnectionOptions } from "./connection.svelte.ts";
import { HeldCatchUp } from "./held-catch-up.ts";
import { FormStates } from "./forms.svelte.ts";
import { announceArrivals, Messages } from "./messages.svelte.ts";
import { Overrides } from "./overrides.svelte.ts";
import { UndoQueue } from "./undo.svelte.ts";
import { readerFilter } from "./reader-filter.ts";
import { Viewer } from "./viewer.svelte.ts";

/** The SDK's default: a tab left in the background lets its stream go after 10 s. */
const PAUSE_WHEN_HIDDEN_MS = 10_000;

/** What the host page adds: where to connect, and how it hears of notifications to open (push links). */
export interface DashboardOptions extends ConnectionOptions {
  /** Calls `open` with a notification id the page was asked to open; returns the cleanup. */
  followOpenRequests?: (open: (id: string) => void) => () => void;
}

export class Dashboard {
  readonly connection = new Connection();
  readonly messages = new Messages();
  readonly overrides = new Overrides(() => this.connection.now);
  /** Dismissals and clear-all within their undo window. */
  readonly undo = new UndoQueue();
  readonly actions = new PersonActions(this.connection, this.overrides, this.messages, this.undo);
  /** Producers' direct displays answering this page's own actions. */
  readonly actionDisplays = new ActionDisplays(this.messages);
  readonly viewer: Viewer;
  /** Brings records held back by quiet mode into the list and the badge (held-catch-up.ts). */
  readonly held: HeldCatchUp;
  /** Follow-up form values, shared by every copy of a notification on the page. */
  readonly forms = new FormStates();
  /** The host page's own listeners to the main view (the dashboard's desktop notifications). */
  private readonly observers: ((state: LiveState) => void)[] = [];
  private readonly personId: string | null;
  drawerOpen = $state(false);
  modalOpen = $state(false);
  /** A notification the inbox should show and focus once open (a "Latest" row, a desktop or push notification). */
  focusId = $state<string | null>(null);

  constructor(
    viewer: { id?: string; name: string; quietMode: boolean; preferences?: Preferences },
    private readonly options: DashboardOptions,
  ) {
    this.connection.configure(options);
    this.personId = viewer.id ?? null;
    this.viewer = new Viewer(viewer, this.connection, this.messages, (error) => this.actions.fail(error));
    this.held = new HeldCatchUp(this.connection, () => this.viewer.mayHold);
  }

  /** Browser only: connects and returns the cleanup. */
  start(): () => void {
    const announce = announceArrivals(this.messages);
    let stopPreferences: (() => void) | null = null;
    const stop = this.connection.start(
      (state) => {
        announce(state);
        for (const observe of this.observers) observe(state);
        // Once the main view is live, after its own subscription: quiet mode then follows live.
        if (state.connection === "live" && !stopPreferences) stopPreferences = this.viewer.followPreferences();
      },
      this.personId,
      readerFilter(this.viewer.controls),
    );
    const client = this.connection.client;
    const stopDisplays = client ? this.actionDisplays.start(client) : () => undefined;
    const stopAnswers = client ? client.actionResponses.subscribe((response) => this.actions.answered(response.notificationId)) : () => undefined;
    const stopHeld = this.held.start();
    const stopWorkerMessages = this.options.followOpenRequests?.((id) => this.openNotification(id)) ?? (() => undefined);
    return () => {
      stopWorkerMessages();
      stopAnswers();
      stopDisplays();
      stopHeld();
      stopPreferences?.();
      stop();
    };
  }

  // Derived (computed once per change, not per read): many surfaces read these on every event.
  /** Active notifications, newest first, with this person's latest actions applied. */
  readonly active: Notification[] = $derived(this.connection.main ? this.overrides.visible(this.connection.main.state.items, this.connection.filter) : []);

  /** The badge: the view's unseen count, less what this person has just seen or dismissed. */
  readonly unseen: number = $derived.by(() => {
    const main = this.connection.main;
    if (!main) return 0;
    const { items, counts } = main.state;
    let unseen = counts.unseen;
    for (const item of items) {
      if (!isUnseen(item)) continue;
      const current = this.overrides.resolve(item);
      if (this.overrides.gone.has(item.id) || !isUnseen(current) || !this.overrides.stillActive(current)) unseen--;
    }
    return Math.max(0, unseen);
  });

  /** What "Unread" counts: the view's unread count, corrected by this person's own latest actions. */
  readonly unread: number = $derived.by(() => {
    const main = this.connection.main;
    if (!main) return 0;
    const { items, counts } = main.state;
    let unread = counts.unread;
    for (const item of items) {
      const current = this.overrides.resolve(item);
      const now = isUnread(current) && !this.overrides.gone.has(item.id) && this.overrides.stillActive(current);
      if (isUnread(item) && !now) unread--;
      else if (!isUnread(item) && now) unread++;
    }
    return Math.max(0, unread);
  });

  /** Whether the first counts have arrived (before that a badge would say a false "0"). */
  get counted(): boolean {
    return this.connection.main !== null && !this.connection.main.loading;
  }

  /** Calls `observe` with every state of the main view, from `start()` on. */
  observe(observe: (state: LiveState) => void): void {
    this.observers.push(observe);
  }

  /** Keeps the stream while the tab is hidden (a background tab then still hears of new notifications). */
  keepStreamWhenHidden(keep: boolean): void {
    this.connection.main?.view.setPauseWhenHidden(keep ? false : PAUSE_WHEN_HIDDEN_MS);
  }

  /** Opens the inbox on one notification, which reads it (the person opened it). */
  openNotification(id: string): void {
    this.focusId = id;
    this.drawerOpen = true;
    void this.actions.markRead([id]);
  }

  /**
   * Where messages must render: a modal <dialog> makes the rest of the page inert, so the live
   * regions have to be inside the topmost one to be seen and announced.
   */
  get topLayer(): "page" | "drawer" | "modal" | "action" {
    // An action's display opens over everything else (it answers what the person just did).
    if (this.actionDisplays.modals.length > 0) return "action";
    return this.modalOpen ? "modal" : this.drawerOpen ? "drawer" : "page";
  }
}

const KEY = Symbol("herald-dashboard");

export function setDashboard(dashboard: Dashboard): Dashboard {
  return setContext(KEY, dashboard);
}

export function getDashboard(): Dashboard {
  return getContext<Dashboard>(KEY);
}
