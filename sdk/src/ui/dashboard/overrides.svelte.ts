// The person's own action results laid over every list: a mutation answers before the event
// stream does, so its result wins until the stream brings something newer. Also the per-record
// state those actions leave behind (a refused dismissal's message, a request in flight, an id
// the server no longer knows).
import { isSnoozed, isTerminal, matchesFilter, supersedes, type Notification, type NotificationFilter } from "@herald/sdk";
import { SvelteMap, SvelteSet } from "svelte/reactivity";

export interface Conflict {
  revision: number;
  message: string;
}

export class Overrides {
  /** Results of this person's own mutations, newer than what the event stream has brought. */
  readonly results = new SvelteMap<string, Notification>();
  /** Dismissals refused because the record changed: shown on its card until acted on again. */
  readonly conflicts = new SvelteMap<string, Conflict>();
  /** Notifications with a request in flight (their buttons are disabled). */
  readonly busy = new SvelteSet<string>();
  /** Ids the server no longer knows. */
  readonly gone = new SvelteSet<string>();
  /** Dismissed here, within their undo window: out of every list, not yet sent (undo.svelte.ts). */
  readonly hidden = new SvelteSet<string>();

  constructor(private readonly now: () => number) {}

  /** Keeps a mutation result if it is newer than what is known. */
  record(n: Notification): void {
    const known = this.results.get(n.id);
    if (!known || supersedes(n, known)) this.results.set(n.id, n);
  }

  /** The newest known state of a record: the stream's, or this person's latest action result. */
  resolve(n: Notification): Notification {
    const result = this.results.get(n.id);
    return result && supersedes(result, n) ? result : n;
  }

  /**
   * Effective records of a list that still belong to it (`keep` replaces the filter check). The
   * lists handed in are already on screen, so a TTL deadline passing does not remove them: the
   * live view and the server leave past-deadline records out of new views only.
   */
  visible(items: readonly Notification[], filter: NotificationFilter, keep?: (n: Notification, now: Date) => boolean): Notification[] {
    const now = new Date(this.now());
    return items
      .map((n) => this.resolve(n))
      .filter((n) => !this.gone.has(n.id) && !this.hidden.has(n.id) && (keep ? keep(n, now) : matchesFilter(n, filter, now, { shown: true })));
  }

  /** Active and not snoozed: still belongs on the main surfaces. */
  stillActive(n: Notification): boolean {
    return !this.gone.has(n.id) && !this.hidden.has(n.id) && !isTerminal(n) && !isSnoozed(n, this.now());
  }
}
