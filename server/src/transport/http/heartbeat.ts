// One timer per interval for every open stream, not one per stream: thousands of idle streams
// cost one wake-up per interval. A stream's first heartbeat may therefore come sooner than a
// full interval after it opened, never later.
const tickers = new Map<number, { members: Set<() => void>; timer: NodeJS.Timeout }>();

/** Calls `beat` on every tick of the shared `intervalMs` timer until the returned function is called. */
export function onEveryTick(intervalMs: number, beat: () => void): () => void {
  let ticker = tickers.get(intervalMs);
  if (!ticker) {
    const members = new Set<() => void>();
    const timer = setInterval(() => {
      for (const member of members) {
        try {
          member();
        } catch {
          // a stream that ended between two ticks; the others still get theirs
        }
      }
    }, intervalMs);
    tickers.set(intervalMs, (ticker = { members, timer }));
  }
  const own = ticker;
  own.members.add(beat);
  return () => {
    if (!own.members.delete(beat) || own.members.size > 0 || tickers.get(intervalMs) !== own) return;
    tickers.delete(intervalMs);
    clearInterval(own.timer);
  };
}
