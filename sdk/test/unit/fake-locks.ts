// navigator.locks for unit tests (Node 20 has none), as the spec has it for one origin.
/** navigator.locks as the spec has it for one origin: one holder per name, the rest queued in order. */
export function fakeLocks() {
  type Entry = { callback: () => Promise<void>; done: (value: unknown) => void };
  const queues = new Map<string, Entry[]>();
  const held = new Set<string>();
  const pump = (name: string) => {
    if (held.has(name)) return;
    const next = queues.get(name)?.shift();
    if (!next) return;
    held.add(name);
    void next.callback().then((value) => {
      held.delete(name);
      next.done(value);
      pump(name);
    });
  };
  return {
    /** Requests waiting in line behind a holder: a member that queued is listening on its channel. */
    queued(): number {
      return [...queues.values()].reduce((sum, queue) => sum + queue.length, 0);
    },
    request(name: string, options: { signal: AbortSignal }, callback: () => Promise<void>): Promise<unknown> {
      return new Promise((resolve, reject) => {
        const entry: Entry = { callback, done: resolve };
        const queue = queues.get(name) ?? [];
        queues.set(name, queue);
        queue.push(entry);
        options.signal.addEventListener("abort", () => {
          const index = queue.indexOf(entry);
          if (index < 0) return;
          queue.splice(index, 1);
          reject(new DOMException("aborted", "AbortError"));
        });
        pump(name);
      });
    },
  };
}
