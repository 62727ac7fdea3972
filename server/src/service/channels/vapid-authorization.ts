// The VAPID Authorization header (RFC 8292) of each push service, signed once and reused: a
// signature per push cost about a millisecond (web-push turns the raw key into PEM and signs for
// every message), the largest single cost of a Web Push delivery. The JWT names only the push
// service's origin, the subject and an expiry, so one token serves every subscription at that
// service until it is renewed, well before its expiry.
import webpush from "web-push";
import type { VapidKeys } from "./vapid.ts";

/** A token is valid this long (web-push's own default); push services refuse more than 24 h. */
const LIFETIME_S = 12 * 3600;
/** Renewed after this long, so no push carries one that is about to expire. */
const RENEW_AFTER_MS = 3600 * 1000;
/** Distinct push services remembered at most (there are a handful; a person may register odd ones). */
const MAX_AUDIENCES = 256;

export class VapidAuthorizations {
  private readonly signed = new Map<string, { header: string; at: number }>();

  constructor(
    private readonly keys: VapidKeys,
    private readonly subject: string,
  ) {}

  /** The header for a push to `endpoint`. Wall-clock time: the push service checks `exp` against its own clock. */
  headerFor(endpoint: string, nowMs = Date.now()): string {
    const audience = new URL(endpoint).origin;
    const cached = this.signed.get(audience);
    if (cached && nowMs - cached.at < RENEW_AFTER_MS) return cached.header;
    const expiration = Math.floor(nowMs / 1000) + LIFETIME_S;
    const header = webpush.getVapidHeaders(audience, this.subject, this.keys.publicKey, this.keys.privateKey, "aes128gcm", expiration).Authorization;
    if (this.signed.size >= MAX_AUDIENCES) this.signed.clear();
    this.signed.set(audience, { header, at: nowMs });
    return header;
  }
}
