// System notifications (the Notification API) while the dashboard is in a background tab: a new
// notification at or above the chosen severity shows one; clicking it brings the tab forward and
// opens the notification. The browser's permission is asked for only from Settings (a click),
// never on page load. The choice is this browser's (localStorage): permission is per browser too.
import type { Notification as HeraldNotification, LiveState } from "@herald/sdk";
import type { Dashboard } from "@herald/sdk/ui/dashboard/dashboard.svelte.ts";
import { getContext, setContext } from "svelte";

export type Severity = HeraldNotification["severity"];
export type DesktopPermission = NotificationPermission | "unsupported";

export interface DesktopChoice {
  enabled: boolean;
  minimum: Severity;
}

const STORAGE_KEY = "herald.desktop-notifications";
const RANK: Record<Severity, number> = { INFO: 0, SUCCESS: 1, WARNING: 2, ERROR: 3 };
const DEFAULT_CHOICE: DesktopChoice = { enabled: false, minimum: "WARNING" };
/** A system notification's body is a glance, not the message: the inbox has the rest. */
const BODY_LIMIT = 180;

function loadChoice(): DesktopChoice {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null") as Partial<DesktopChoice> | null;
    const minimum = stored?.minimum && stored.minimum in RANK ? stored.minimum : DEFAULT_CHOICE.minimum;
    return { enabled: stored?.enabled === true, minimum };
  } catch {
    return DEFAULT_CHOICE;
  }
}

export class DesktopNotifier {
  choice = $state<DesktopChoice>(DEFAULT_CHOICE);
  permission = $state<DesktopPermission>("default");
  /** Ids of the records the page already had: only ones that arrive later are announced. */
  private known: Set<string> | null = null;

  /** Listens to the dashboard's main view; `start()` once in the browser. */
  constructor(private readonly dash: Dashboard) {
    dash.observe((state) => this.observe(state));
  }

  /** Browser only: reads the stored choice and the browser's permission. */
  start(): void {
    this.permission = typeof Notification === "undefined" ? "unsupported" : Notification.permission;
    this.choice = loadChoice();
    this.dash.keepStreamWhenHidden(this.active);
  }

  get active(): boolean {
    return this.choice.enabled && this.permission === "granted";
  }

  /** From a click in Settings: asks the browser (once it has been answered, it answers at once). */
  async enable(minimum: Severity): Promise<void> {
    if (this.permission === "unsupported") return;
    this.permission = await Notification.requestPermission();
    this.save({ enabled: this.permission === "granted", minimum });
  }

  disable(): void {
    this.save({ ...this.choice, enabled: false });
  }

  setMinimum(minimum: Severity): void {
    this.save({ ...this.choice, minimum });
  }

  /** Each state of the main view: shows what is new, when the page is in the background. */
  observe(state: LiveState): void {
    if (state.connection === "connecting" && state.items.length === 0) return;
    const arrived = this.known ? state.items.filter((n) => !this.known!.has(n.id)) : [];
    this.known = new Set(state.items.map((n) => n.id));
    if (!this.active || document.visibilityState !== "hidden") return;
    for (const n of arrived) if (RANK[n.severity] >= RANK[this.choice.minimum]) this.show(n);
  }

  private show(n: HeraldNotification) {
    const body = n.display.body.length > BODY_LIMIT ? `${n.display.body.slice(0, BODY_LIMIT - 1)}…` : n.display.body;
    let shown: Notification;
    try {
      // The tag makes several tabs of this dashboard show one system notification, not one each.
      shown = new Notification(n.display.title, { body, tag: n.id });
    } catch {
      // Some browsers (Chrome on Android) show them only through a service worker: the inbox has it.
      return;
    }
    shown.onclick = (event) => {
      event.preventDefault();
      window.focus();
      this.dash.openNotification(n.id);
      shown.close();
    };
  }

  private save(choice: DesktopChoice) {
    this.choice = choice;
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(choice));
    } catch {
      // storage refused (private mode): the choice holds for this page only
    }
    this.dash.keepStreamWhenHidden(this.active);
  }
}

const KEY = Symbol("desktop-notifier");

export function setDesktopNotifier(notifier: DesktopNotifier): DesktopNotifier {
  return setContext(KEY, notifier);
}

export function getDesktopNotifier(): DesktopNotifier {
  return getContext<DesktopNotifier>(KEY);
}
