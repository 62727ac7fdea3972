// SQLite has one writer: Herald keeps one connection per store, and every write on it holds this
// lock: a transaction from its BEGIN to its COMMIT, an exclusive section (a NotificationStore unit)
// from its first read to its COMMIT, and a statement run outside both for that one statement. So
// at most one transaction is open on the connection, and no write lands inside another's.

/** What holds the lock: a transaction, an exclusive section, or one autocommit write. */
export type Holder = "transaction" | "exclusive" | "write";

/** A first-come, first-served lock whose holders may await. */
export class WriterLock {
  private tail: Promise<void> = Promise.resolve();
  private holder: Holder | null = null;
  private queued = 0;

  /** Resolves with the release function once every earlier holder has released. */
  acquire(holder: Holder = "transaction"): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    this.queued++;
    const turn = this.tail.then(() => {
      this.queued--;
      this.holder = holder;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        this.holder = null;
        release();
      };
    });
    this.tail = this.tail.then(() => released);
    return turn;
  }

  get isHeld(): boolean {
    return this.holder !== null;
  }

  /** Who holds it now, if anyone. */
  get heldBy(): Holder | null {
    return this.holder;
  }

  /** How many wait for their turn. */
  get waiting(): number {
    return this.queued;
  }
}
