// The signed-in person as the page shows them: their name, quiet mode and reader controls.
import { type Preferences, Reconnector } from "@herald/sdk";
import type { Connection } from "./connection.svelte.ts";
import { inForce, nextMuteEnd, type ReaderControls, type ReaderSettings, readerFilter, settingsOf } from "./reader-filter.ts";
import type { Messages } from "./messages.svelte.ts";
import { t } from "../i18n/index.ts";

/** setTimeout's longest delay; a mute ending later is looked at again then. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export class Viewer {
  name = $state("");
  quietMode = $state(false);
  quietBusy = $state(false);

  constructor(
    viewer: { name: string; quietMode: boolean; preferences?: Preferences },
    private readonly connection: Connection,
    private readonly messages: Messages,
    private readonly fail: (error: unknown) => void,
  ) {
    this.name = viewer.name;
    this.quietMode = viewer.quietMode;
    this.settings = settingsOf(viewer.preferences ?? { mutedPlugins: [], severityFloor: "INFO" });
    this.controls = inForce(this.settings, Date.now());
  }

  /** The mutes (with their ends) and severity floor as they stood at sign-in or last changed. */
  private settings: ReaderSettings;
  /** The next end of a timed mute, when the list must show that plugin again. */
  private expiry: ReturnType<typeof setTimeout> | null = null;

  /** Muted plugins and severity floor in force now. */
  controls: ReaderControls;

  /** Whether new records are held back from the stream for as long as it lasts (quiet mode). */
  get mayHold(): boolean {
    return this.quietMode;
  }

  /**
   * Quiet mode as it changes anywhere (another tab or device, or the person's companion asked
   * in conversation): the muted state follows without a reload. The tabs of this origin share
   * one preferences stream (the connection's `share`); a tab joining late gets the current value
   * from the tab holding it. A dropped stream is followed again a little later. Returns the stop
   * function.
   */
  followPreferences(): () => void {
    let stopped = false;
    let unsubscribe: (() => void) | null = null;
    // The SDK's reconnect schedule: exponential with jitter up to 30 s, reset by a value arriving.
    const reconnect = new Reconnector();
    const follow = () => {
      const client = this.connection.client;
      if (stopped || !client) return;
      const again = () => {
        unsubscribe?.();
        unsubscribe = null;
        if (!stopped) reconnect.failed(follow);
      };
      const sink = {
        next: (preferences: Preferences) => {
          reconnect.succeeded();
          this.setQuiet(preferences.quietMode);
          // An older tab's hub may relay quiet mode alone; keep what is known then.
          if (preferences.mutedPlugins && preferences.severityFloor) {
            this.settings = settingsOf(preferences);
            this.applyControls();
          }
        },
        error: again,
        complete: again,
      };
      unsubscribe = client.preferences(sink, { share: this.connection.share });
    };
    follow();
    this.applyControls();
    return () => {
      stopped = true;
      if (this.expiry) clearTimeout(this.expiry);
      this.expiry = null;
      reconnect.cancel();
      unsubscribe?.();
    };
  }

  /**
   * Puts the controls in force now into the list filter, and wakes when the next timed mute ends:
   * the server lets that plugin's records through again by its clock, with no event saying so.
   */
  private applyControls(): void {
    const now = Date.now();
    this.controls = inForce(this.settings, now);
    this.connection.useFilter(readerFilter(this.controls));
    if (this.expiry) clearTimeout(this.expiry);
    this.expiry = null;
    const next = nextMuteEnd(this.settings, now);
    if (next !== null) this.expiry = setTimeout(() => this.applyControls(), Math.min(next - now, MAX_TIMEOUT_MS));
  }

  private setQuiet(quietMode: boolean) {
    this.quietMode = quietMode;
    // Quiet mode over: what it held may pop up again (the stream releases it too).
    if (!quietMode) this.connection.held.clear();
  }

  async setQuietMode(enabled: boolean): Promise<void> {
    const client = this.connection.client;
    if (!client || this.quietBusy) return;
    this.quietBusy = true;
    try {
      this.setQuiet(await client.setQuietMode(enabled));
      this.messages.notify(this.quietMode ? t.quiet.turnedOn : t.quiet.turnedOff);
    } catch (error) {
      this.fail(error);
    } finally {
      this.quietBusy = false;
    }
  }
}
