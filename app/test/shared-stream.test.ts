// Two tabs of one browser signed in as one person share one event stream: only the tab holding
// the Web Lock subscribes to notificationEvents, the other receives its events over a
// BroadcastChannel, and when the leading tab closes the other opens its own stream and keeps
// receiving. In Chromium against a real Herald and the built dashboard.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, browserAvailability, launch } from "./support/browser";
import { type Stack, startStack } from "./support/stack";

const availability = (() => {
  try {
    return browserAvailability();
  } catch {
    return { run: false, reason: "Chromium is missing (dashboard.test.ts reports it)" };
  }
})();

describe.skipIf(!availability.run)("one event stream shared across the tabs of one origin", () => {
  let stack: Stack;
  let browser: Browser;
  let first: Page;
  let second: Page;
  /** notificationEvents subscriptions each page registered (single-connection mode POSTs each one). */
  const subscriptions = new Map<Page, number>();

  const countSubscriptions = (page: Page) => {
    subscriptions.set(page, 0);
    page.on("request", (request) => {
      if (request.method() !== "POST" || new URL(request.url()).pathname !== "/api/graphql/stream") return;
      if ((request.postData() ?? "").includes("notificationEvents")) subscriptions.set(page, (subscriptions.get(page) ?? 0) + 1);
    });
  };
  const badgeCount = async (page: Page) => Number(await page.locator("[data-testid=badge]").getAttribute("data-count"));
  const publish = async (key: string) => {
    const result = await stack.producer.publish({ scope: "PERSON", personId: stack.person.id, source: { plugin: "e2e" }, key, title: `Shared ${key}` });
    if (!result.ok) throw new Error(result.message);
  };

  beforeAll(async () => {
    stack = await startStack();
    browser = await launch(stack.dashboardUrl);
    first = browser.page;
    first.setDefaultTimeout(15_000);
    countSubscriptions(first);
    await first.goto(`/signin/${await stack.newSignInCode()}`);
    await first.getByRole("button", { name: "Continue to the dashboard" }).click();
    await first.getByRole("heading", { name: "Hello, Ada" }).waitFor();
    second = await browser.context.newPage();
    second.setDefaultTimeout(15_000);
    countSubscriptions(second);
    await second.goto("/");
    await second.getByRole("heading", { name: "Hello, Ada" }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("holds one stream for both tabs, and both show what a producer publishes", async () => {
    await expect.poll(() => subscriptions.get(first)).toBeGreaterThan(0);
    // Give the second tab time to have subscribed, were it going to.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(subscriptions.get(second)).toBe(0);
    await publish("shared-1");
    await expect.poll(() => badgeCount(first), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => badgeCount(second), { timeout: 10_000 }).toBe(1);
  });

  it("opens its own stream in the remaining tab when the leading tab closes, and keeps receiving", async () => {
    await first.close();
    // Published while no tab may hold a stream: the new leader resumes from the last cursor it saw.
    await publish("shared-2");
    await expect.poll(() => subscriptions.get(second), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => badgeCount(second), { timeout: 10_000 }).toBe(2);
    await publish("shared-3");
    await expect.poll(() => badgeCount(second), { timeout: 10_000 }).toBe(3);
  });
});
