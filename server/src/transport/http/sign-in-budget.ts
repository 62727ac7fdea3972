// Sign-in link redemption has a budget of its own, apart from the request rate every caller
// shares: per code (a link pressed again and again) and per client address (one client trying
// many codes). Junk redemptions from one client use up that client's budget, never a person's
// real link on another address. Codes are counted by digest, so no code is kept in memory or Redis.
import { createHash } from "node:crypto";
import { RateLimitedError } from "../../domain/errors.ts";
import { SIGN_IN_BUDGET } from "../../domain/limits.ts";
import type { Logger } from "../../logger.ts";
import { RequestRateLimiter } from "./rate-limiter.ts";

export class SignInBudget {
  private readonly perCode: RequestRateLimiter;
  private readonly perClient: RequestRateLimiter;

  constructor(
    private readonly logger: Logger,
    redis?: { url: string; keyPrefix: string },
  ) {
    const { windowSeconds } = SIGN_IN_BUDGET;
    const shared = (suffix: string) => (redis ? { url: redis.url, keyPrefix: `${redis.keyPrefix}:${suffix}` } : undefined);
    this.perCode = new RequestRateLimiter({ points: SIGN_IN_BUDGET.perCode, windowSeconds, redis: shared("signin-code") });
    this.perClient = new RequestRateLimiter({ points: SIGN_IN_BUDGET.perClient, windowSeconds, redis: shared("signin-client") });
  }

  /** Counts one redemption of `code` from `client`; throws RateLimitedError past either budget. */
  async admit(code: string, client: string): Promise<void> {
    const digest = createHash("sha256").update(code).digest("base64url");
    let decisions;
    try {
      decisions = await Promise.all([this.perClient.consume(client), this.perCode.consume(digest)]);
    } catch (error) {
      // A limiter that cannot count must not lock every person out.
      this.logger.warn({ err: (error as Error).message }, "sign-in budget unavailable; redemption let through");
      return;
    }
    for (const decision of decisions) if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
  }

  close(): void {
    this.perCode.close();
    this.perClient.close();
  }
}
