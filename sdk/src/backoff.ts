// Reconnect delays: exponential with full jitter, so many clients dropped together by one
// server restart do not come back in lockstep.
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxMs, options.initialMs * 2 ** Math.min(attempt, 20));
  return Math.round(random() * ceiling);
}
