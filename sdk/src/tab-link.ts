// The leader election and message path under the shared streams (shared-stream.ts): every tab
// (or client within a tab) that joins a name opens a BroadcastChannel of that name and asks for
// the Web Lock of that name; the one holding the lock leads, the rest follow its messages. The
// browser hands the lock to the next tab in line when the leader lets go or its tab closes.

export interface Locks {
  request(name: string, options: { signal: AbortSignal }, callback: () => Promise<void>): Promise<unknown>;
}

/** What sharing needs from the browser; tests pass their own. */
export interface SharingGlobals {
  navigator?: { locks?: Locks };
  BroadcastChannel?: typeof BroadcastChannel;
  crypto?: { subtle?: Pick<SubtleCrypto, "digest"> };
}

export interface TabSupport {
  locks: Locks;
  Channel: typeof BroadcastChannel;
  subtle: Pick<SubtleCrypto, "digest">;
}

/** Null where tabs cannot share (Node, old browsers): each view then keeps its own stream. */
export function tabSupport(globals: SharingGlobals): TabSupport | null {
  const locks = globals.navigator?.locks;
  const Channel = globals.BroadcastChannel;
  const subtle = globals.crypto?.subtle;
  return locks && Channel && subtle ? { locks, Channel, subtle } : null;
}

/**
 * `<kind>:<SHA-256 of key>`: the key (a person's id) never appears in a name another script of
 * the origin can list, and two keys (two persons signed in to one browser) never meet.
 */
export async function linkName(kind: string, key: string, subtle: Pick<SubtleCrypto, "digest">): Promise<string> {
  const digest = await subtle.digest("SHA-256", new TextEncoder().encode(key));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `herald-${kind}:${hex}`;
}

export interface LinkHandlers<M> {
  /** A message of another member (never this one's own). */
  message(message: M): void;
  /** This member got the lock; returns what to do when it lets go. */
  lead(): () => void;
  /** The name could not be made (no usable SubtleCrypto). */
  failed(error: Error): void;
}

export class TabLink<M> {
  private channel: BroadcastChannel | null = null;
  private closed = false;
  private release: (() => void) | null = null;
  private stopLeading: (() => void) | null = null;
  private readonly abort = new AbortController();
  /** Posted before the channel was open; sent once it is. */
  private readonly early: M[] = [];

  constructor(name: Promise<string>, support: TabSupport, handlers: LinkHandlers<M>) {
    name
      .then((lockName) => {
        if (this.closed) return;
        const channel = new support.Channel(lockName);
        this.channel = channel;
        channel.onmessage = (event: MessageEvent<M>) => {
          if (!this.closed) handlers.message(event.data);
        };
        for (const message of this.early.splice(0)) channel.postMessage(message);
        // The lock is held while this promise is pending: until close(), or until the tab goes.
        const lead = () =>
          new Promise<void>((resolve) => {
            if (this.closed) return resolve();
            this.release = resolve;
            const stop = handlers.lead();
            // lead() may have ended the member (its last view was told to reload): stop at once.
            if (this.closed) stop();
            else this.stopLeading = stop;
          });
        // Rejected with an AbortError when the member leaves before it ever led: nothing to do.
        support.locks.request(lockName, { signal: this.abort.signal }, lead).catch(() => undefined);
      })
      .catch((error: Error) => {
        if (!this.closed) handlers.failed(error);
      });
  }

  get leading(): boolean {
    return this.release !== null;
  }

  post(message: M): void {
    if (this.closed) return;
    if (this.channel) this.channel.postMessage(message);
    else this.early.push(message);
  }

  /** Leaves: stops leading (the lock passes on), stops listening. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    const stop = this.stopLeading;
    this.stopLeading = null;
    stop?.();
    this.release?.();
    this.release = null;
    this.channel?.close();
  }
}
