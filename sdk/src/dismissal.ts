// Exact-revision dismissal with hide-and-retry (for clients that drop off, such as phones):
// the dismissed revision is hidden at once; if the request fails it stays hidden and is sent
// again, with the same expected revision, when the record is observed after a reconnect. A
// dismissal never transfers to a newer revision: seeing one drops the entry and shows it.
import type { HeraldError } from "./errors.ts";
import type { DismissResult, Notification } from "./types.ts";

type Ref = Pick<Notification, "id" | "revision">;

interface Entry {
  revision: number;
  inFlight: boolean;
  failed: boolean;
}

/** The request could not complete; the revision stays hidden and will be retried. */
export type PendingDismissal = { ok: false; reason: "pending"; error: HeraldError | Error };

export class DismissalCache {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly send: (notification: Ref) => Promise<DismissResult>) {}

  /** True while this exact revision is dismissed locally. */
  isHidden(notification: Ref): boolean {
    return this.entries.get(notification.id)?.revision === notification.revision;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Hides the revision now and asks the server; see the class comment for failures. */
  async dismiss(notification: Ref): Promise<DismissResult | PendingDismissal> {
    const entry: Entry = { revision: notification.revision, inFlight: true, failed: false };
    this.entries.set(notification.id, entry);
    this.changed();
    try {
      const result = await this.send(notification);
      entry.inFlight = false;
      // Success stays hidden until the dismissed revision is observed; a refusal shows the record again.
      if (!result.ok && this.entries.get(notification.id) === entry) this.entries.delete(notification.id);
      this.changed();
      return result;
    } catch (error) {
      entry.inFlight = false;
      entry.failed = true;
      this.changed();
      return { ok: false, reason: "pending", error: error as Error };
    }
  }

  /** Every record the client observes (snapshot, event, refetch) passes through here. */
  observe(notification: Pick<Notification, "id" | "revision">): void {
    const entry = this.entries.get(notification.id);
    if (!entry) return;
    if (notification.revision > entry.revision) {
      this.entries.delete(notification.id);
      this.changed();
    } else if (notification.revision === entry.revision && entry.failed && !entry.inFlight) {
      void this.dismiss(notification);
    }
  }

  /** Sends every failed dismissal again (after a reconnect). */
  retryFailed(): void {
    for (const [id, entry] of this.entries) {
      if (entry.failed && !entry.inFlight) void this.dismiss({ id, revision: entry.revision });
    }
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed() {
    for (const listener of this.listeners) listener();
  }
}
