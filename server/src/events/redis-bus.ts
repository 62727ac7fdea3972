// The bus across instances: every message is published on one Redis channel and every instance
// hears every message. Redis keeps nothing, so after a reconnect the instance asks its readers
// to catch up from the event log (onResync). Redis being away at start delays nothing: the
// instance serves (not ready on /ready) and its readers catch up once the subscription stands.
import { Redis } from "ioredis";
import type { Logger } from "../logger.ts";
import { waitAtMost } from "../util/wait-at-most.ts";
import type { BusListener, BusMessage, EventBus } from "./bus.ts";

/** How long a start waits for Redis before it serves without it. */
const START_WAIT_MS = 3_000;

export class RedisEventBus implements EventBus {
  private readonly listeners = new Set<BusListener>();
  private readonly resyncListeners = new Set<() => void>();
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private wasReady = false;

  /**
   * `channel` names one deployment (derived from its database), so deployments sharing a Redis
   * never hear each other's events.
   */
  constructor(
    url: string,
    private readonly channel: string,
    private readonly logger: Logger,
  ) {
    const options = { maxRetriesPerRequest: null, retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000) };
    this.publisher = new Redis(url, { ...options, enableOfflineQueue: false });
    this.subscriber = new Redis(url, options);
    this.subscriber.on("message", (channel: string, text: string) => {
      if (channel === this.channel) this.dispatch(text);
    });
    this.subscriber.on("ready", () => {
      if (this.wasReady) {
        this.logger.info("redis bus reconnected; readers catch up from the event log");
        for (const listener of this.resyncListeners) listener();
      }
      this.wasReady = true;
    });
    for (const client of [this.publisher, this.subscriber]) {
      client.on("error", (error: Error) => this.logger.warn({ err: error.message }, "redis bus error"));
    }
  }

  /**
   * Subscribes in the background: never waits for Redis. Once the subscription stands (now, or
   * when Redis first answers), readers catch up from the event log on what they missed meanwhile;
   * ioredis subscribes again by itself after every reconnect (the "ready" handler).
   */
  async start(waitMs = START_WAIT_MS): Promise<void> {
    const subscribed = this.subscriber.subscribe(this.channel).then(
      () => {
        for (const listener of this.resyncListeners) listener();
      },
      (error: Error) => this.logger.warn({ err: error.message }, "redis bus could not subscribe"),
    );
    // A Redis that is up is normally there at once: start with it, as every instance's first requests expect.
    await waitAtMost(subscribed, waitMs);
    if (this.subscriber.status !== "ready") this.logger.warn("redis is not reachable yet; serving, not ready until it answers");
  }

  publish(message: BusMessage): void {
    this.publisher.publish(this.channel, JSON.stringify(message)).catch((error: Error) => {
      // Readers elsewhere will find the event in the log on their next catch-up.
      this.logger.warn({ err: error.message }, "redis publish failed");
    });
  }

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  /** Fails at once while Redis is unreachable (the publisher queues nothing offline). */
  async ping(): Promise<void> {
    await this.publisher.ping();
  }

  async close(): Promise<void> {
    this.listeners.clear();
    // QUIT after what is in flight, so a short-lived process (`herald revoke`) does not drop its message.
    await Promise.race([this.publisher.quit().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }

  private dispatch(text: string) {
    let message: BusMessage;
    try {
      message = JSON.parse(text) as BusMessage;
    } catch {
      return;
    }
    for (const listener of this.listeners) listener(message);
  }
}
