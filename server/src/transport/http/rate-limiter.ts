// Per-credential request rates (rate-limiter-flexible): counted in memory, or in Redis when the
// deployment has one, so the limit holds across instances. A Redis outage must not lock every
// client out, so each instance then counts in memory until Redis is back.
import { Redis } from "ioredis";
import { waitAtMost } from "../../util/wait-at-most.ts";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

export interface RateLimitOptions {
  points: number;
  windowSeconds: number;
  /** With a Redis URL, every instance shares the count; `keyPrefix` keeps deployments apart. */
  redis?: { url: string; keyPrefix: string } | undefined;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class RequestRateLimiter {
  private readonly limiter: RateLimiterAbstract;
  private readonly client: Redis | null = null;

  constructor(options: RateLimitOptions) {
    const memory = new RateLimiterMemory({ points: options.points, duration: options.windowSeconds });
    if (!options.redis) {
      this.limiter = memory;
      return;
    }
    // No offline queue: while Redis is away a request is counted in memory at once instead of waiting.
    this.client = new Redis(options.redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: (n: number) => Math.min(n * 200, 2_000) });
    this.client.on("error", () => undefined); // the bus logs Redis trouble; one line per outage is enough
    this.limiter = new RateLimiterRedis({
      storeClient: this.client,
      keyPrefix: options.redis.keyPrefix,
      points: options.points,
      duration: options.windowSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    });
  }

  /** Resolves once the shared count is reachable, or after `ms` (then each instance counts alone until it is). */
  async connected(ms: number): Promise<void> {
    const client = this.client;
    if (!client || client.status === "ready") return;
    await waitAtMost(new Promise((resolve) => client.once("ready", resolve)), ms);
  }

  /** Counts one request of `key` (a credential id, or a client address). */
  async consume(key: string): Promise<RateDecision> {
    try {
      await this.limiter.consume(key);
      return { allowed: true };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      throw rejection;
    }
  }

  close(): void {
    this.client?.disconnect();
  }
}
