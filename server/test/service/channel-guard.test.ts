// The channel request guard refuses, on the address a name resolves to at send time, every
// target a channel must not reach (loopback, private, link-local), unless its host is allowed;
// the refused request never reaches the listener.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedRequest, RefusedTarget } from "../../src/service/channels/guarded-request.ts";
import { isNonPublicAddress } from "../../src/domain/channels.ts";
import { testTls, WebhookReceiver } from "../support/channel-receivers.ts";

const tls = testTls();

describe("the channel request guard", () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start(tls);
    receiver.secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  });
  afterAll(async () => receiver?.close());

  const port = () => new URL(receiver.url).port;
  const send = (url: string, allow: string[]) =>
    guardedRequest(
      url,
      { method: "POST", headers: { "content-type": "application/json" }, body: "{}" },
      { allowHosts: new Set(allow), timeoutMs: 5_000, maxResponseBytes: 1_024, agent: tls.agent },
    );

  it("refuses a name that resolves to 127.0.0.1 (DNS rebinding) unless the host is allowed", async () => {
    await expect(send(`https://localhost:${port()}/x`, ["127.0.0.1"])).rejects.toThrow(RefusedTarget);
    await expect(send(`https://localhost:${port()}/x`, ["127.0.0.1"])).rejects.toThrow(/localhost resolves to 127\.0\.0\.1/);
    expect(receiver.received).toHaveLength(0);
    // Allowed by name: the same request goes through (the listener answers: its signature check fails, 400).
    const answered = await send(`https://localhost:${port()}/x`, ["localhost"]);
    expect(answered.status).toBe(400);
    expect(receiver.received).toHaveLength(1);
  });

  it("refuses literal private, loopback and link-local addresses and plain http:", async () => {
    for (const url of [
      `https://127.0.0.1:${port()}/x`,
      "https://10.1.2.3/x",
      "https://169.254.169.254/latest",
      "https://[::1]/x",
      "https://[fe80::1]/x",
      "http://example.com/x",
    ]) {
      await expect(send(url, []), url).rejects.toThrow(RefusedTarget);
    }
    expect(receiver.received).toHaveLength(1);
  });

  it("bounds the answer it reads", async () => {
    receiver.script.push({ status: 200 });
    const answered = await send(`https://127.0.0.1:${port()}/x`, ["127.0.0.1"]);
    expect(answered.body.length).toBeLessThanOrEqual(1_024);
  });

  it("judges a 6to4 address by the IPv4 address it carries and refuses Teredo (found by the hostile probe)", async () => {
    // 2002:7f00:1:: is 6to4 for 127.0.0.1, 2002:a00:1:: for 10.0.0.1, 2002:a9fe:a9fe:: for 169.254.169.254.
    for (const a of ["2002:7f00:1::", "2002:a00:1::1", "2002:a9fe:a9fe::", "2002:c0a8:101::", "2001:0:4136:e378:8000:63bf:3fff:fdd2"]) {
      expect(isNonPublicAddress(a), a).toBe(true);
    }
    expect(isNonPublicAddress("2002:808:808::")).toBe(false);
    await expect(send("https://[2002:7f00:1::]/hook", [])).rejects.toThrow(RefusedTarget);
  });

  it("knows which addresses are not public", () => {
    for (const a of [
      "0.0.0.0",
      "10.0.0.1",
      "100.64.0.1",
      "127.0.0.1",
      "169.254.1.1",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "224.0.0.1",
      "::",
      "::1",
      "fc00::1",
      "fd12::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
    ]) {
      expect(isNonPublicAddress(a), a).toBe(true);
    }
    for (const a of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"]) expect(isNonPublicAddress(a), a).toBe(false);
  });
});
