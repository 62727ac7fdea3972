// The VAPID header is signed once per push service and reused until it is renewed: the same token
// for every subscription at one origin, another for another origin, a fresh one after an hour, and
// each a valid ES256 JWT for its audience (the push service in channel-delivery.test.ts checks the
// same on the wire).
import { createPublicKey, verify } from "node:crypto";
import webpush from "web-push";
import { describe, expect, it } from "vitest";
import { VapidAuthorizations } from "../../src/service/channels/vapid-authorization.ts";

const keys = webpush.generateVAPIDKeys();

function claimsOf(header: string): { aud: string; exp: number; sub: string } {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  expect(match?.[2]).toBe(keys.publicKey);
  const [head, claims, signature] = match![1]!.split(".");
  const raw = Buffer.from(keys.publicKey, "base64url");
  const key = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33).toString("base64url") },
    format: "jwk",
  });
  expect(verify("sha256", Buffer.from(`${head}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature!, "base64url"))).toBe(true);
  return JSON.parse(Buffer.from(claims!, "base64url").toString());
}

describe("VapidAuthorizations", () => {
  it("signs once per push service, reuses the token within the hour and renews it after", () => {
    const vapid = new VapidAuthorizations(keys, "mailto:ops@example.org");
    const t0 = Date.UTC(2026, 11, 5, 8, 0, 0);
    const first = vapid.headerFor("https://push.example.net/send/aaa", t0);
    expect(vapid.headerFor("https://push.example.net/send/bbb", t0 + 59 * 60_000)).toBe(first);
    expect(claimsOf(first)).toEqual({ aud: "https://push.example.net", exp: t0 / 1000 + 12 * 3600, sub: "mailto:ops@example.org" });

    const other = vapid.headerFor("https://updates.push.example.com/wpush/v2/x", t0);
    expect(claimsOf(other).aud).toBe("https://updates.push.example.com");

    const renewed = vapid.headerFor("https://push.example.net/send/aaa", t0 + 61 * 60_000);
    expect(renewed).not.toBe(first);
    expect(claimsOf(renewed).exp).toBe(t0 / 1000 + 61 * 60 + 12 * 3600);
  });
});
