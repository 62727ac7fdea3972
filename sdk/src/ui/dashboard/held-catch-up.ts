// Quiet mode holds new records back from the event stream, but the server lists and counts them:
// without help the page would show fewer records, and a lower badge, than a reload does. While
// quiet mode is on, the page compares the server's counts for its filter with what its main view
// shows, and reloads the view's snapshot when they differ: the held records then show in the list
// and the badge, quietly (no banner or modal for them until quiet mode ends). Quiet hours are left to the stream,
// which releases what they held when they end.
import type { Counts } from "@herald/sdk";
import type { Connection } from "./connection.svelte.ts";

/** How often the counts are compared while something may be held. */
export const HELD_CHECK_MS = 5_000;

export class HeldCatchUp {
  private running = false;

  constructor(
    private readonly connection: Connection,
    private readonly mayHold: () => boolean,
  ) {}

  /** Browser only: compares on a timer while quiet mode is on; returns the stop function. */
  start(): () => void {
    const timer = setInterval(() => {
      if (this.mayHold()) void this.check();
    }, HELD_CHECK_MS);
    return () => clearInterval(timer);
  }

  /** Compares now (the drawer opening asks too) and reloads the main view if it is behind. */
  async check(): Promise<void> {
    const { client, main } = this.connection;
    if (!client || !main || this.running || main.state.connection !== "live") return;
    this.running = true;
    try {
      const server = await client.counts(this.connection.filter);
      if (!sameCounts(server, main.state.counts)) await this.connection.resync();
    } catch {
      // The next check tries again; a failed request is the connection's to report.
    } finally {
      this.running = false;
    }
  }
}

function sameCounts(a: Counts, b: Counts): boolean {
  return a.total === b.total && a.unseen === b.unseen && a.unread === b.unread;
}
