// What the real-time path and the change path report to operations (metrics). The composition
// root supplies the implementation; these layers only know this interface.
export interface HeraldObserver {
  /** A notification was published (created or revised) by a producer of this source plugin. */
  published(plugin: string): void;
  /** A committed event reached this instance's streams, `lagMs` after its commit. */
  fannedOut(lagMs: number): void;
  /** A stream was closed because its client fell behind (`queue`: live events, `bytes`: unsent output). */
  slowConsumerClosed(reason: "queue" | "bytes"): void;
  /** A stream of this person started (true) or stopped (false) holding notifications back for quiet mode. */
  holding(personId: string, held: boolean): void;
  /** An agent session's label could not be read, made or stored (its notification went out regardless). */
  labelsUnavailable(): void;
  /** A live event was rendered for a group of alike subscriptions (one render serves the whole group). */
  rendered(): void;
}

export const noObserver: HeraldObserver = {
  published: () => undefined,
  fannedOut: () => undefined,
  slowConsumerClosed: () => undefined,
  holding: () => undefined,
  labelsUnavailable: () => undefined,
  rendered: () => undefined,
};
