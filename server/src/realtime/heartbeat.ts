// One timer per interval for every open stream, not one per stream: thousands of idle streams
// cost one wake-up per interval. A stream's first heartbeat may therefore come sooner than a
// full interval after it opened, never later.

/** A stream that sends heartbeats: an object, so a stream registers itself rather than a closure. */
export interface Beating {
  beat(): void;
}

const tickers = new Map<number, { members: Set<Beating>; timer: NodeJS.Timeout }>();

/** Calls `member.beat()` on every tick of the shared `intervalMs` timer until stopTicks is called. */
export function startTicks(intervalMs: number, member: Beating): void {
  let ticker = tickers.get(intervalMs);
  if (!ticker) {
    const members = new Set<Beating>();
    const timer = setInterval(() => {
      for (const each of members) {
        try {
          each.beat();
        } catch {
          // a stream that ended between two ticks; the others still get theirs
        }
      }
    }, intervalMs);
    tickers.set(intervalMs, (ticker = { members, timer }));
  }
  ticker.members.add(member);
}

export function stopTicks(intervalMs: number, member: Beating): void {
  const ticker = tickers.get(intervalMs);
  if (!ticker?.members.delete(member) || ticker.members.size > 0) return;
  tickers.delete(intervalMs);
  clearInterval(ticker.timer);
}
