// The dashboard's state in the browser: one SDK client talking to the SvelteKit proxy, the main
// live view (badge, banners, modal, announcements), the person's latest action results laid
// over every list, and the messages the page shows and announces.
import {
  createHeraldClient,
  HeraldError,
  type HeraldClient,
  type LiveState,
  type Notification,
  type NotificationFilter,
  matchesFilter,
  isTerminal,
  isUnseen,
  supersedes,
} from "@herald/sdk";
import { getContext, setContext } from "svelte";
import { SvelteMap, SvelteSet } from "svelte/reactivity";
import { absoluteTime } from "./format";
import { LiveList } from "./live.svelte";

type Action = Notification["actions"][number];

/** An observation's “Remember this”: Herald itself stores the fact, no producer is involved. */
const REMEMBER_FACT_ACTION = "herald.rememberFact";

export interface Notice {
  id: number;
  text: string;
  tone: "info" | "error";
}

export const isSnoozed = (n: Pick<Notification, "snoozedUntil">, now: number) => n.snoozedUntil !== null && Date.parse(n.snoozedUntil) > now;

export class Dashboard {
  client: HeraldClient | null = null;
  main = $state.raw<LiveList | null>(null);
  viewerName = $state("");
  quietMode = $state(false);
  quietBusy = $state(false);
  /** Ticks every 15 s so relative times and snooze filters stay right. */
  now = $state(Date.now());
  drawerOpen = $state(false);
  modalOpen = $state(false);
  /** The person's token stopped working (revoked or expired). */
  signedOut = $state(false);
  /** Results of this person's own mutations, newer than what the event stream has brought. */
  readonly overrides = new SvelteMap<string, Notification>();
  /** Dismissals refused because the record changed: shown on its card until acted on again. */
  readonly conflicts = new SvelteMap<string, { revision: number; message: string }>();
  /** Notifications with a request in flight (their buttons are disabled). */
  readonly busy = new SvelteSet<string>();
  /** Ids the server no longer knows. */
  readonly gone = new SvelteSet<string>();
  notices = $state<Notice[]>([]);
  /** Text of the polite live region (new notifications, conflicts). */
  announcement = $state("");

  private knownIds: Set<string> | null = null;
  private noticeId = 0;
  private stopPreferences: (() => void) | null = null;

  constructor(viewer: { name: string; quietMode: boolean }) {
    this.viewerName = viewer.name;
    this.quietMode = viewer.quietMode;
  }

  /** Browser only: connects and returns the cleanup. */
  start(): () => void {
    const client = createHeraldClient({
      // No token: the browser never holds it (httpOnly cookie); the /api proxy adds it.
      url: new URL("/api/graphql", location.origin).href,
      // Every live view of this tab shares one SSE connection (graphql-sse single-connection mode).
      singleConnection: true,
    });
    this.client = client;
    this.main = new LiveList(client, {}, { maxItems: 500 }, (state) => this.observeMain(state));
    const tick = setInterval(() => (this.now = Date.now()), 15_000);
    return () => {
      clearInterval(tick);
      this.stopPreferences?.();
      this.stopPreferences = null;
      this.main?.close();
      this.main = null;
      client.close();
      this.client = null;
    };
  }

  // ---- reading -------------------------------------------------------------------------

  /** The newest known state of a record: the stream's, or this person's latest action result. */
  resolve(n: Notification): Notification {
    const override = this.overrides.get(n.id);
    return override && supersedes(override, n) ? override : n;
  }

  /** Effective records of a list that still belong to it. */
  visible(items: readonly Notification[], filter: NotificationFilter, keep?: (n: Notification, now: Date) => boolean): Notification[] {
    const now = new Date(this.now);
    return items.map((n) => this.resolve(n)).filter((n) => !this.gone.has(n.id) && (keep ? keep(n, now) : matchesFilter(n, filter, now)));
  }

  /** Active and not snoozed: still belongs on the main surfaces. */
  stillActive(n: Notification): boolean {
    return !this.gone.has(n.id) && !isTerminal(n) && !isSnoozed(n, this.now);
  }

  // Derived (computed once per change, not per read): many surfaces read these on every event.
  /** Active notifications, newest first, with this person's latest actions applied. */
  readonly active: Notification[] = $derived(this.main ? this.visible(this.main.state.items, {}) : []);

  /** The badge: the view's unseen count, less what this person has just seen or dismissed. */
  readonly unseen: number = $derived.by(() => {
    if (!this.main) return 0;
    const { items, counts } = this.main.state;
    let unseen = counts.unseen;
    for (const item of items) {
      if (!isUnseen(item)) continue;
      const current = this.resolve(item);
      if (this.gone.has(item.id) || !isUnseen(current) || !this.stillActive(current)) unseen--;
    }
    return Math.max(0, unseen);
  });

  /**
   * Where messages must render: a modal <dialog> makes the rest of the page inert, so the live
   * regions have to be inside the topmost one to be seen and announced.
   */
  get topLayer(): "page" | "drawer" | "modal" {
    return this.modalOpen ? "modal" : this.drawerOpen ? "drawer" : "page";
  }

  get connection() {
    return this.main?.state.connection ?? "connecting";
  }

  // ---- acting --------------------------------------------------------------------------

  /** Keeps a mutation result if it is newer than what is known. */
  record(n: Notification): void {
    const known = this.overrides.get(n.id);
    if (!known || supersedes(n, known)) this.overrides.set(n.id, n);
  }

  async markSeen(ids: readonly string[]): Promise<void> {
    if (!this.client || ids.length === 0) return;
    try {
      for (const n of await this.client.markSeen(ids)) this.record(n);
    } catch (error) {
      this.handleAuth(error);
      // Not worth a message: they stay unseen and are marked the next time they are shown.
    }
  }

  /** Revision-checked: a record that changed meanwhile is shown, not dismissed. */
  async dismiss(n: Notification): Promise<void> {
    if (this.busy.has(n.id)) return;
    await this.act(n, async (client) => {
      const result = await client.dismiss(n);
      if (result.ok) {
        this.record(result.notification);
        this.conflicts.delete(n.id);
        this.notify(`Dismissed “${n.display.title}”.`);
      } else if (result.reason === "conflict") {
        this.record(result.current);
        const changedTitle = result.current.display.title !== n.display.title ? `, now titled “${result.current.display.title}”` : "";
        const message = `Not dismissed: “${n.display.title}” changed while you were looking at it (revision ${n.revision} → ${result.current.revision}${changedTitle}). The newer version is shown; dismiss it again if it is still done with.`;
        this.conflicts.set(n.id, { revision: result.current.revision, message });
        this.announce(message);
      } else if (result.reason === "transition") {
        this.record(result.current);
        this.notify(`“${n.display.title}” was already ${result.current.status.toLowerCase()}.`);
      } else {
        this.gone.add(n.id);
        this.notify(`“${n.display.title}” no longer exists.`);
      }
    });
  }

  async snooze(n: Notification, until: Date): Promise<void> {
    if (!this.client) return;
    if (until.getTime() <= Date.now()) {
      this.notify("Pick a time in the future to snooze until.", "error");
      return;
    }
    await this.act(n, async (client) => {
      this.record(await client.snooze(n.id, until));
      this.notify(`Snoozed “${n.display.title}” until ${absoluteTime(until)}.`);
    });
  }

  async unsnooze(n: Notification): Promise<void> {
    await this.act(n, async (client) => {
      this.record(await client.unsnooze(n.id));
      this.notify(`“${n.display.title}” is back in your notifications.`);
    });
  }

  /** A RUN_ACTION follow-up (Cancel included): the producer receives the invocation. */
  async invoke(n: Notification, action: Action): Promise<void> {
    await this.act(n, async (client) => {
      await client.invokeAction(n.id, action.id);
      this.notify(action.actionId === REMEMBER_FACT_ACTION ? "Remembered." : `“${action.label}” sent to ${n.source.plugin}.`);
    });
  }

  /**
   * Quiet mode as it changes anywhere (another tab or device, or the person's companion asked
   * in conversation): the muted state follows without a reload. Started once the main view is
   * live, after its own subscription; a dropped stream is followed again a little later.
   */
  private followPreferences(): void {
    const client = this.client;
    if (!client || this.stopPreferences) return;
    const retry = () => {
      this.stopPreferences?.();
      this.stopPreferences = null;
      setTimeout(() => this.client === client && this.followPreferences(), 5_000);
    };
    this.stopPreferences = client.preferences({
      next: (preferences) => (this.quietMode = preferences.quietMode),
      error: retry,
      complete: retry,
    });
  }

  /** One request about `n`: its buttons are disabled meanwhile, and a failure is shown. */
  private async act(n: Notification, request: (client: HeraldClient) => Promise<void>): Promise<void> {
    if (!this.client) return;
    this.busy.add(n.id);
    try {
      await request(this.client);
    } catch (error) {
      this.fail(error);
    } finally {
      this.busy.delete(n.id);
    }
  }

  async copy(text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.notify("Copied to the clipboard.");
    } catch {
      // Clipboard API refused (e.g. plain http on another host): fall back to a selection copy.
      const area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.append(area);
      area.select();
      const copied = document.execCommand("copy");
      area.remove();
      this.notify(copied ? "Copied to the clipboard." : "Copying is not allowed here; select the text and copy it by hand.", copied ? "info" : "error");
    }
  }

  async setQuietMode(enabled: boolean): Promise<void> {
    if (!this.client || this.quietBusy) return;
    this.quietBusy = true;
    try {
      this.quietMode = await this.client.setQuietMode(enabled);
      this.notify(
        this.quietMode
          ? "Quiet mode is on: new notifications are kept for later and not shown as they arrive."
          : "Quiet mode is off: anything that arrived meanwhile is shown now.",
      );
    } catch (error) {
      this.fail(error);
    } finally {
      this.quietBusy = false;
    }
  }

  // ---- messages ------------------------------------------------------------------------

  /** A visible message (role=status, so screen readers hear it too). */
  notify(text: string, tone: Notice["tone"] = "info"): void {
    const notice = { id: ++this.noticeId, text, tone };
    this.notices = [...this.notices, notice].slice(-4);
    setTimeout(() => this.closeNotice(notice.id), tone === "error" ? 10_000 : 6_000);
  }

  closeNotice(id: number): void {
    this.notices = this.notices.filter((n) => n.id !== id);
  }

  /** Text for the polite live region; repeated text is announced again. */
  announce(text: string): void {
    this.announcement = "";
    queueMicrotask(() => (this.announcement = text));
  }

  describe(error: unknown): string {
    if (error instanceof HeraldError) {
      switch (error.code) {
        case "NETWORK":
          return "Herald could not be reached. Check your connection and try again.";
        case "UNAUTHENTICATED":
          return "Your sign-in is no longer valid. Sign in again.";
        case "NOT_FOUND":
          return "That notification no longer exists.";
        default:
          return error.message;
      }
    }
    return "Something went wrong. Try again.";
  }

  private fail(error: unknown): void {
    this.handleAuth(error);
    this.notify(this.describe(error), "error");
  }

  private handleAuth(error: unknown): void {
    if (error instanceof HeraldError && error.code === "UNAUTHENTICATED") this.signedOut = true;
  }

  /** Announces notifications that appear after the first live snapshot. */
  private observeMain(state: LiveState): void {
    this.handleAuth(state.error);
    if (this.knownIds === null) {
      if (state.connection === "live") {
        this.knownIds = new Set(state.items.map((n) => n.id));
        this.followPreferences();
      }
      return;
    }
    const known = this.knownIds;
    const fresh = state.items.filter((n) => !known.has(n.id));
    for (const n of fresh) known.add(n.id);
    const unseen = fresh.filter(isUnseen);
    const [newest] = unseen;
    if (!newest) return;
    this.announce(unseen.length === 1 ? `New notification: ${newest.display.title}` : `${unseen.length} new notifications, the newest: ${newest.display.title}`);
  }
}

const KEY = Symbol("herald-dashboard");

export function setDashboard(dashboard: Dashboard): Dashboard {
  return setContext(KEY, dashboard);
}

export function getDashboard(): Dashboard {
  return getContext<Dashboard>(KEY);
}
