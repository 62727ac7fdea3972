// Settings, "Notify me elsewhere", in Chromium on a 360x740 phone screen against a real Herald
// and the built dashboard: add an ntfy topic (with a token) and a webhook (its secret shown once,
// then never again), a refused URL named in words, rules per channel, a test send that reaches a
// local ntfy-format receiver and a webhook receiver checking the signature with the secret the
// page showed, a failing channel and its failure in the recent deliveries, removal; nothing is
// wider than the screen. "This device": the browser's permission is asked only on the click;
// pushManager.subscribe() cannot reach a push service offline, so the page says so, and with a
// stand-in subscription (the browser's push service is what cannot exist here) the page registers
// it with Herald's VAPID key, marks it "This device" and unsubscribes when it is removed.
import { createECDH, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, browserAvailability, launch, screenshot } from "./support/browser";
import { type Stack, startStack } from "./support/stack";

const availability = browserAvailability();

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Local stand-ins for an ntfy server and a webhook endpoint (plain http, allowed for 127.0.0.1). */
async function startReceiver() {
  const received: Received[] = [];
  const waiting: { path: string; resolve: (r: Received) => void }[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const entry = { path: request.url ?? "", headers: request.headers, body };
      received.push(entry);
      // /broken refuses like a misconfigured endpoint; a 4xx other than 429 is not retried.
      response.statusCode = entry.path === "/broken" ? 400 : 200;
      response.setHeader("content-type", "application/json");
      response.end(entry.path === "/" ? JSON.stringify({ id: "m1", event: "message" }) : "{}");
      const index = waiting.findIndex((w) => w.path === entry.path);
      if (index >= 0) waiting.splice(index, 1)[0]!.resolve(entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    /** The next request to `path`. */
    next: (path: string) => new Promise<Received>((resolve) => waiting.push({ path, resolve })),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Standard Webhooks: HMAC-SHA256 of "id.timestamp.body" with the secret after "whsec_". */
function signatureValid(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`).digest();
  return String(headers["webhook-signature"] ?? "")
    .split(" ")
    .some((part) => {
      const [version, value] = part.split(",");
      const given = Buffer.from(value ?? "", "base64");
      return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** The document or an element of the section sticks out on the right of the screen. */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width) found.push(`document: scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
    for (const element of document.querySelectorAll("[data-testid=notify-elsewhere] *")) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.right > width + 0.5)
        found.push(`${element.tagName.toLowerCase()} reaches ${Math.round(box.right)}: ${(element.textContent ?? "").trim().slice(0, 40)}`);
    }
    return found;
  });
}

/** Polls that wait on the delivery worker (a test send, retries): seconds, not the default second. */
const DELIVERY = { timeout: 30_000 };

const b64url = (bytes: Buffer) => bytes.toString("base64url");

describe.skipIf(!availability.run)("Settings: notify me elsewhere", () => {
  let stack: Stack;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let page: Page;
  /** The webhook secret the page showed once. */
  let receiverSecret = "";
  const section = () => page.getByTestId("notify-elsewhere");
  const card = (label: string) =>
    section()
      .getByTestId("channel")
      .filter({ has: page.getByText(label, { exact: true }) });

  beforeAll(async () => {
    receiver = await startReceiver();
    stack = await startStack({ env: { HERALD_CHANNEL_ALLOW_HOSTS: "127.0.0.1", HERALD_DELIVERY_MAX_ATTEMPTS: "2", HERALD_DELIVERY_RETRY_BASE_MS: "100" } });
    browser = await launch(stack.dashboardUrl);
    page = browser.page;
    page.setDefaultTimeout(30_000);
    await page.setViewportSize({ width: 360, height: 740 });
    // Counts the page's permission requests: it may ask only from the person's click.
    await browser.context.addInitScript(() => {
      const original = Notification.requestPermission.bind(Notification);
      (window as unknown as { permissionRequests: number }).permissionRequests = 0;
      Notification.requestPermission = () => {
        (window as unknown as { permissionRequests: number }).permissionRequests++;
        return original();
      };
    });
    await page.goto(`/signin/${await stack.newSignInCode()}`);
    await page.getByRole("button", { name: "Continue to the dashboard" }).click();
    await page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await receiver?.close();
  });

  it("adds an ntfy topic and a webhook, shows the webhook's secret once, and names a refused URL", async () => {
    await page.goto("/settings");
    await section().getByTestId("no-channels").waitFor();

    const ntfy = section().getByTestId("add-ntfy");
    await ntfy.getByLabel("Topic URL").fill(`${receiver.base}/herald-ada`);
    await ntfy.getByLabel("Access token (optional)").fill("tk_ntfy_access_token");
    await ntfy.getByLabel("Name (optional)").fill("Phone (ntfy)");
    await ntfy.getByRole("button", { name: "Add ntfy topic" }).click();
    await card("Phone (ntfy)").waitFor();
    expect(await card("Phone (ntfy)").getAttribute("data-kind")).toBe("NTFY");
    expect(await ntfy.getByLabel("Access token (optional)").inputValue()).toBe("");

    const hook = section().getByTestId("add-webhook");
    await hook.getByLabel("Endpoint URL").fill("http://example.com/herald");
    await hook.getByRole("button", { name: "Add webhook" }).click();
    await expect.poll(() => hook.getByRole("alert").textContent()).toContain("https");
    expect(await hook.getByLabel("Endpoint URL").getAttribute("aria-invalid")).toBe("true");
    expect((await stack.personClient.channels()).channels).toHaveLength(1);

    await hook.getByLabel("Endpoint URL").fill(`${receiver.base}/hook`);
    await hook.getByLabel("Name (optional)").fill("CI hook");
    await hook.getByRole("button", { name: "Add webhook" }).click();
    const secret = (await hook.getByTestId("webhook-secret-value").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    await card("CI hook").waitFor();
    await screenshot(page, "channels-phone-secret", true);
    await hook.getByTestId("webhook-secret-done").click();
    await hook.getByTestId("webhook-secret").waitFor({ state: "detached" });

    // Gone for good: not on the page after a reload, not in anything Herald returns.
    await page.reload();
    await card("CI hook").waitFor();
    expect(await page.content()).not.toContain(secret);
    expect(JSON.stringify(await stack.personClient.channels())).not.toContain(secret);
    expect(JSON.stringify(await stack.personClient.channels())).not.toContain("tk_ntfy_access_token");
    receiverSecret = secret;
  });

  it("sets a channel's rules: minimum severity, scopes and 'only if still unseen after'", async () => {
    const ntfy = card("Phone (ntfy)");
    await ntfy.getByText("Rules", { exact: true }).click();
    await ntfy.getByTestId("rule-severity").selectOption("WARNING");
    await ntfy.getByTestId("rule-scope-APPLICATION").uncheck();
    await ntfy.getByTestId("rule-delay").selectOption({ label: "Only if still unseen after 5 min" });
    await ntfy.getByTestId("rule-save").click();
    await page.getByText("Rules saved for Phone (ntfy).").waitFor();
    const saved = (await stack.personClient.channels()).channels.find((c) => c.label === "Phone (ntfy)");
    expect(saved?.rules).toMatchObject({ minSeverity: "WARNING", delaySeconds: 300 });
    expect([...saved!.rules.scopes].sort()).toEqual(["PERSON", "SESSION"]);

    // No scope at all is refused in words, and nothing changes.
    for (const scope of ["PERSON", "SESSION"]) await ntfy.getByTestId(`rule-scope-${scope}`).uncheck();
    await ntfy.getByTestId("rule-save").click();
    await expect.poll(() => ntfy.getByRole("alert").textContent()).toContain("scope");
    expect([...((await stack.personClient.channels()).channels.find((c) => c.label === "Phone (ntfy)")?.rules.scopes ?? [])].sort()).toEqual([
      "PERSON",
      "SESSION",
    ]);
  });

  it("sends a test to the webhook (signed with the secret shown once) and to ntfy (with its token)", async () => {
    const hookRequest = receiver.next("/hook");
    await card("CI hook").getByTestId("channel-test").click();
    const received = await hookRequest;
    expect(signatureValid(receiverSecret, received.headers, received.body)).toBe(true);
    expect(JSON.parse(received.body)).toMatchObject({ type: "channel.test" });
    await expect.poll(() => card("CI hook").getByTestId("test-state").getAttribute("data-status"), DELIVERY).toBe("SENT");

    // ntfy's JSON publish goes to the server's root, naming the topic in the body.
    const ntfyRequest = receiver.next("/");
    await card("Phone (ntfy)").getByTestId("channel-test").click();
    const published = await ntfyRequest;
    expect(published.headers.authorization).toBe("Bearer tk_ntfy_access_token");
    expect(JSON.parse(published.body)).toMatchObject({ topic: "herald-ada" });
    await expect.poll(() => card("Phone (ntfy)").getByTestId("test-state").getAttribute("data-status"), DELIVERY).toBe("SENT");
    await expect.poll(() => card("Phone (ntfy)").getByTestId("channel-state").textContent(), DELIVERY).toContain("Last delivery");
  });

  it("shows a failing channel and its failure in the recent deliveries", async () => {
    const hook = section().getByTestId("add-webhook");
    await hook.getByLabel("Endpoint URL").fill(`${receiver.base}/broken`);
    await hook.getByLabel("Name (optional)").fill("Broken hook");
    await hook.getByRole("button", { name: "Add webhook" }).click();
    await hook.getByTestId("webhook-secret-done").click();
    await card("Broken hook").getByTestId("channel-test").click();
    await expect.poll(() => card("Broken hook").getByTestId("test-state").getAttribute("data-status"), DELIVERY).toBe("FAILED");
    await expect.poll(() => card("Broken hook").getByTestId("channel-state").textContent(), DELIVERY).toContain("Failing");
    const failed = section().getByTestId("delivery").filter({ hasText: "Broken hook" });
    await expect.poll(() => failed.getAttribute("data-status"), DELIVERY).toBe("FAILED");
    expect(await failed.textContent()).toContain("400");
    expect(await section().getByTestId("delivery").filter({ hasText: "CI hook" }).getAttribute("data-status")).toBe("SENT");
    await screenshot(page, "channels-phone-360", true);
  });

  it("removes a channel after a confirmation", async () => {
    await card("Broken hook").getByTestId("channel-remove").click();
    await card("Broken hook").getByTestId("channel-remove-confirm").click();
    await page.getByText("Removed Broken hook.").waitFor();
    await card("Broken hook").waitFor({ state: "detached" });
    expect((await stack.personClient.channels()).channels.map((c) => c.label).sort()).toEqual(["CI hook", "Phone (ntfy)"]);
  });

  it("asks for notification permission only on the click, and says so when the browser cannot subscribe offline", async () => {
    // Headless Chromium denies notifications unless granted; a person's browser would prompt on the click.
    await browser.context.grantPermissions(["notifications"], { origin: stack.dashboardUrl });
    await page.goto("/settings");
    await card("CI hook").waitFor();
    expect(await page.evaluate(() => (window as unknown as { permissionRequests: number }).permissionRequests)).toBe(0);
    await section().getByTestId("device-add").click();
    // Chromium's push service is on the internet: the subscription fails here, and the page says why.
    await expect.poll(() => section().getByTestId("device-error").textContent()).toContain("could not subscribe");
    expect(await page.evaluate(() => (window as unknown as { permissionRequests: number }).permissionRequests)).toBe(1);
    expect((await stack.personClient.channels()).channels.some((c) => c.kind === "WEB_PUSH")).toBe(false);
  });

  it("registers this device's subscription with Herald's key (a stand-in for the push service), and unsubscribes on removal", async () => {
    const ecdh = createECDH("prime256v1");
    const keys = { endpoint: "https://push.example.com/send/device-1", p256dh: b64url(ecdh.generateKeys()), auth: b64url(randomBytes(16)) };
    await page.evaluate((keys) => {
      const state = window as unknown as { usedKey: string; unsubscribed: boolean };
      let current: PushSubscription | null = null;
      PushManager.prototype.getSubscription = async () => current;
      PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
        const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
        state.usedKey = btoa(String.fromCharCode(...key))
          .replace(/\+/g, "-")
          .replace(/\//g, "_")
          .replace(/=+$/, "");
        current = {
          endpoint: keys.endpoint,
          options: { applicationServerKey: key.buffer, userVisibleOnly: options?.userVisibleOnly ?? false },
          toJSON: () => ({ endpoint: keys.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } }),
          unsubscribe: async () => {
            state.unsubscribed = true;
            current = null;
            return true;
          },
        } as unknown as PushSubscription;
        return current;
      };
    }, keys);
    await section().getByTestId("device-add").click();
    await expect.poll(() => section().getByTestId("device-state").textContent()).toContain("This device gets notifications");
    expect(await page.evaluate(() => (window as unknown as { usedKey: string }).usedKey)).toBe(await stack.personClient.webPushPublicKey());
    const device = section().getByTestId("channel").filter({ hasText: "This device" });
    expect(await device.getAttribute("data-kind")).toBe("WEB_PUSH");
    const stored = (await stack.personClient.channels()).channels.filter((c) => c.kind === "WEB_PUSH");
    expect(stored).toHaveLength(1);
    expect(await device.getAttribute("data-channel-id")).toBe(stored[0]!.id);
    expect(await overflowing(page)).toEqual([]);
    await screenshot(page, "channels-phone-device", true);

    await device.getByTestId("channel-remove").click();
    await device.getByTestId("channel-remove-confirm").click();
    await section().getByTestId("device-add").waitFor();
    expect(await page.evaluate(() => (window as unknown as { unsubscribed: boolean }).unsubscribed)).toBe(true);
    expect((await stack.personClient.channels()).channels.some((c) => c.kind === "WEB_PUSH")).toBe(false);
  });
});
