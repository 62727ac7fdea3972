// Sizes and time limits of the fan-out benchmark. Fixed counts (not "as long as it takes"), so
// runs compare like for like and the whole run stays within ~8 minutes on a 2-core machine even
// when a server cannot keep up.
export const fanoutConfig = {
  /** Concurrent subscribers per scenario (the issue: 1,000 and 5,000 on one instance). */
  sizes: [1_000, 5_000],
  /** The steady load: 100 events/s, every event to every subscriber. */
  steadyRate: 100,
  steadySeconds: 10,
  /** After the last steady publish, how long deliveries may still arrive before the rest count as lost. */
  steadyDrainSeconds: 20,
  /** Burst: this many events published at once; the figure is the time until everyone has all of them. */
  burstEvents: 50,
  burstDeadlineSeconds: 90,
  /**
   * A publish request fails after this long. Generous: a server busy fanning out may answer
   * publishes late, and a timed-out publish may never have been committed (then its event is
   * missing from every subscriber, which would count as a lost delivery rather than a slow one).
   */
  publishTimeoutSeconds: 120,
  /** Publish requests in flight at once during the burst (an HTTP agent's socket pool). */
  burstConcurrency: 16,
  /** Connections being opened at once; more only fills the listen backlog. */
  connectConcurrency: 100,
  connectDeadlineSeconds: 120,
  /**
   * Live-only subscriptions miss an event published before they are registered, so readiness is
   * proven by delivery: a barrier event every second until every subscriber has had one.
   */
  barrierEvents: 20,
  barrierIntervalMs: 1_000,
  /** Subscriber processes; on the pinned layout one is enough (they share one core anyway). */
  workers: 1,
  /**
   * Bytes of every baseline message body, so all three servers put about the same number of bytes
   * on the wire per delivery as Herald's graphql-sse event does (measured: ~240).
   */
  baselineBodyBytes: 240,
  /** Before each scenario, wait up to this long for other work on the machine to finish. */
  quietWaitSeconds: 20,
  serverStartTimeoutMs: 60_000,
  /** A normal run takes 4-6 minutes; past this something hangs and the run is abandoned. */
  hardLimitMinutes: 12,
  /** The targets. */
  targets: { p99Ms: 250, p99AtSubscribers: 5_000, completionOverNchan: 4 },
  /** The fan-out goals at this many subscribers: burst deliveries/s beside each baseline, and memory per subscriber. */
  renderOnce: { subscribers: 1_000, overBare: 0.8, overNchan: 0.5, perConnectionKiB: 30 },
} as const;

export type TargetName = "herald" | "bare" | "nchan";
export const allTargets: TargetName[] = ["herald", "bare", "nchan"];
