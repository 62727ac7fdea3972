// The signed-in person as the page shows them: their name and quiet mode.
import type { Connection } from "./connection.svelte";
import type { Messages } from "./messages.svelte";
import { t } from "$lib/i18n";

const PREFERENCES_RETRY_MS = 5_000;

export class Viewer {
  name = $state("");
  quietMode = $state(false);
  quietBusy = $state(false);

  constructor(
    viewer: { name: string; quietMode: boolean },
    private readonly connection: Connection,
    private readonly messages: Messages,
    private readonly fail: (error: unknown) => void,
  ) {
    this.name = viewer.name;
    this.quietMode = viewer.quietMode;
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
    let retry: ReturnType<typeof setTimeout> | null = null;
    const follow = () => {
      const client = this.connection.client;
      if (stopped || !client) return;
      const again = () => {
        unsubscribe?.();
        unsubscribe = null;
        if (!stopped) retry = setTimeout(follow, PREFERENCES_RETRY_MS);
      };
      const sink = { next: (preferences: { quietMode: boolean }) => (this.quietMode = preferences.quietMode), error: again, complete: again };
      unsubscribe = client.preferences(sink, { share: this.connection.share });
    };
    follow();
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      unsubscribe?.();
    };
  }

  async setQuietMode(enabled: boolean): Promise<void> {
    const client = this.connection.client;
    if (!client || this.quietBusy) return;
    this.quietBusy = true;
    try {
      this.quietMode = await client.setQuietMode(enabled);
      this.messages.notify(
        this.quietMode ? t.quiet.turnedOn : t.quiet.turnedOff,
      );
    } catch (error) {
      this.fail(error);
    } finally {
      this.quietBusy = false;
    }
  }
}
