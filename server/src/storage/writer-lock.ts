// SQLite has one writer: Herald keeps one connection per store, and every transaction on it holds
// this lock from its BEGIN (or, for a NotificationStore unit, its first read) to its COMMIT, so at
// most one transaction is open on the connection and none waits on another's BEGIN.

/** A first-come, first-served lock whose holders may await. */
export class WriterLock {
  private tail: Promise<void> = Promise.resolve();
  private held = false;

  /** Resolves with the release function once every earlier holder has released. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const turn = this.tail.then(() => {
      this.held = true;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        this.held = false;
        release();
      };
    });
    this.tail = this.tail.then(() => released);
    return turn;
  }

  get isHeld(): boolean {
    return this.held;
  }
}
