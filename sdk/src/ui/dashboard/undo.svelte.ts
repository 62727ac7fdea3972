// Undo for what cannot be taken back on the server (a dismissal is terminal there): the change is
// shown at once and sent only when its undo window closes (UNDO_MS, the notice's close button,
// leaving the page). Undo is the notice's button or Ctrl/Cmd+Z.

/** How long a dismissal can be taken back. */
export const UNDO_MS = 6_000;

export interface Pending {
  id: number;
  text: string;
}

interface Entry extends Pending {
  undo: () => void;
  commit: () => Promise<void>;
  timer: ReturnType<typeof setTimeout>;
}

export class UndoQueue {
  /** What can still be undone, oldest first (each is a notice with an Undo button). */
  pending = $state.raw<Pending[]>([]);
  private readonly entries = new Map<number, Entry>();
  private lastId = 0;

  /** Shows `text` with Undo; `commit` runs when the window closes, `undo` instead of it. */
  offer(text: string, undo: () => void, commit: () => Promise<void>): void {
    const id = ++this.lastId;
    const timer = setTimeout(() => void this.commit(id), UNDO_MS);
    this.entries.set(id, { id, text, undo, commit, timer });
    this.sync();
  }

  /** Takes back one pending change (the newest when no id). Returns whether there was one. */
  undo(id?: number): boolean {
    const entry = id === undefined ? [...this.entries.values()].at(-1) : this.entries.get(id);
    if (!entry) return false;
    this.take(entry.id)?.undo();
    return true;
  }

  /** Closes the window now: the change is sent. */
  async commit(id: number): Promise<void> {
    await this.take(id)?.commit();
  }

  /** Sends everything pending (the page is going away). */
  flush(): void {
    for (const id of [...this.entries.keys()]) void this.commit(id);
  }

  private take(id: number): Entry | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    this.entries.delete(id);
    this.sync();
    return entry;
  }

  private sync(): void {
    this.pending = [...this.entries.values()].map(({ id, text }) => ({ id, text }));
  }
}
