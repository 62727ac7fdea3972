// Who a secret belongs to, remembered for a moment. Every request names its credential, and the
// store look-up was a fixed cost of every list and publish; a credential changes only by being
// revoked, and a revocation evicts it here at once (this instance's own, and every instance's
// through the bus). Only a revocation no bus carried (`herald revoke` run without REDIS_URL)
// waits for the entry to age out: at most CREDENTIAL_CACHE_TTL_MS.
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Clock } from "../domain/clock.ts";
import type { Caller } from "./caller.ts";

/** As long as the revocation check's default interval: a missed message bites no later than before for streams. */
export const CREDENTIAL_CACHE_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  caller: Caller;
  /** Clock time (ms) from which the entry no longer answers. */
  until: number;
}

export class CredentialCache {
  /**
   * Keyed by the secret's digest, so the process keeps no secret longer than a request does. Aged
   * by the service's clock rather than the cache's own timer, so time can be moved in tests.
   */
  private readonly entries = new LRUCache<string, Entry>({ max: MAX_ENTRIES });
  /**
   * Moves on with every eviction. A look-up that began before a revocation may have read the row
   * before it was revoked; it must not put the credential back (set() with a stale generation).
   */
  private evictions = 0;

  constructor(private readonly clock: Clock) {}

  get generation(): number {
    return this.evictions;
  }

  static keyOf(secret: string): string {
    return createHash("sha256").update(secret).digest("base64url");
  }

  get(key: string): Caller | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > this.clock.now().getTime()) return entry.caller;
    this.entries.delete(key);
    return undefined;
  }

  /** Only working credentials are remembered: an unknown or revoked one is asked about every time. */
  set(key: string, caller: Caller, generation: number): void {
    if (generation === this.evictions) this.entries.set(key, { caller, until: this.clock.now().getTime() + CREDENTIAL_CACHE_TTL_MS });
  }

  evict(credentialIds: readonly string[]): void {
    if (credentialIds.length === 0) return;
    this.evictions++;
    const gone = new Set(credentialIds);
    for (const [key, entry] of this.entries.entries()) if (gone.has(entry.caller.credentialId)) this.entries.delete(key);
  }
}
