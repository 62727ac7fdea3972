// An inbox people live in (Chromium against a real Herald): times say when a thing happened and
// only a producer's revision adds "updated"; a record that ends while shown (resolved, expired,
// or its TTL deadline passing on the page's clock) says so at once and its buttons are disabled.
// The page's clock is Playwright's (page.clock), which the dashboard's one clock reads.
// Screenshots: life-*.png.
import AxeBuilder from "@axe-core/playwright";
import type { Notification, PublishNotificationInput } from "@herald/sdk";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Browser, browserAvailability, launch, screenshot } from "./support/browser";
import { type Stack, startStack } from "./support/stack";

const availability = (() => {
  try {
    return browserAvailability();
  } catch {
    return { run: false, reason: "Chromium is missing (dashboard.test.ts reports it)" };
  }
})();

/** Every axe violation of the WCAG 2.1 A/AA and best-practice rules, whatever its impact. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} - ${v.help}`));
}

/** expect.poll with room for a busy machine. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });

/** Whether every button of a card is disabled and it offers no link to act on. */
async function allDisabled(card: Locator): Promise<boolean> {
  const buttons = await card.locator("button").evaluateAll((list) => list.map((b) => (b as HTMLButtonElement).disabled));
  return buttons.length > 0 && buttons.every(Boolean) && (await card.locator(".actions a").count()) === 0;
}

describe.skipIf(!availability.run)("an inbox people live in", () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;

  async function publish(input: Partial<PublishNotificationInput> & { key: string; title: string }): Promise<Notification> {
    const r = await stack.producer.publish({ scope: "PERSON", personId: stack.person.id, source: { plugin: "life" }, ...input });
    if (!r.ok) throw new Error(r.message);
    return r.notification;
  }
  const drawer = () => page.getByTestId("drawer");
  const card = (id: string) => drawer().locator(`article[data-surface=drawer][data-notification-id="${id}"]`);
  const isOpen = () => drawer().evaluate((d: HTMLDialogElement) => d.open);
  async function openDrawer() {
    if (!(await isOpen())) await page.getByTestId("drawer-button").click();
    await drawer().locator("[data-testid=feed-list], .empty").first().waitFor();
  }
  async function closeDrawer() {
    if (await isOpen()) await page.keyboard.press("Escape");
    await poll(isOpen).toBe(false);
  }
  const runAction = { kind: "RUN_ACTION" as const, id: "retry", label: "Retry", actionId: "build.retry" };

  beforeAll(async () => {
    stack = await startStack();
    browser = await launch(stack.dashboardUrl);
    page = browser.page;
    page.setDefaultTimeout(30_000);
    // The dashboard's clock reads Date.now() and setTimeout: the test moves them.
    await page.clock.install();
    await page.goto(`/signin/${await stack.newSignInCode()}`);
    await page.getByRole("button", { name: "Continue to the dashboard" }).click();
    await page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
    await page.locator("[data-testid=connection][data-state=live]").waitFor();
  }, 300_000);
  beforeEach(async () => {
    if (await drawer().isVisible()) await closeDrawer();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("shows when a notification arrived, through seen and read, and 'updated' only after a producer's revision", async () => {
    const n = await publish({ key: "times", title: "Build 7 failed" });
    await openDrawer();
    const created = card(n.id).locator("time.created");
    await created.waitFor();
    // Opening marked it seen (updatedAt moved); reading it moves updatedAt again.
    await poll(async () => (await stack.personClient.get(n.id))?.seenAt ?? null).not.toBeNull();
    await card(n.id).getByTestId("mark-read").click();
    await poll(() => card(n.id).getAttribute("data-read")).toBe("true");
    const read = await stack.personClient.get(n.id);
    expect(read?.updatedAt).not.toBe(n.createdAt);
    expect(await created.getAttribute("datetime")).toBe(n.createdAt);
    expect(await card(n.id).getByTestId("revised").count()).toBe(0);

    const revised = await stack.producer.update(n.id, { body: "Second attempt failed too" });
    if (!revised.ok) throw new Error(revised.message);
    await poll(() => card(n.id).getAttribute("data-revision")).toBe("2");
    await poll(() => card(n.id).getByTestId("revised").count()).toBe(1);
    expect(await card(n.id).getByTestId("revised").textContent()).toMatch(/^updated/);
    expect(await created.getAttribute("datetime")).toBe(n.createdAt);
    await screenshot(page, "life-times");
    await closeDrawer();
  });

  it("shows a notification resolved while on screen as resolved at once, its buttons disabled", async () => {
    const n = await publish({ key: "resolve-live", title: "Approve deploy 12", actions: [runAction] });
    await openDrawer();
    await card(n.id).getByRole("button", { name: "Retry" }).waitFor();
    expect(await card(n.id).getByRole("button", { name: "Retry" }).isDisabled()).toBe(false);
    await stack.producer.resolve(n.id);
    await poll(() => card(n.id).getAttribute("data-ended")).toBe("RESOLVED");
    expect(await allDisabled(card(n.id))).toBe(true);
    expect(await card(n.id).locator(".state").textContent()).toMatch(/^Resolved/);
    expect(await card(n.id).locator(".new").count()).toBe(0);
    await screenshot(page, "life-resolved-while-shown");
    // Reopened, the list is what the server lists: an ended record is under History only.
    await closeDrawer();
    await openDrawer();
    expect(await card(n.id).count()).toBe(0);
    await closeDrawer();
  });

  it("reads a notification when the person opens it (a click on the card, a Latest row), not when the inbox opens", async () => {
    const clicked = await publish({ key: "read:click", title: "Invoice 88 paid" });
    const fromLatest = await publish({ key: "read:latest", title: "Contract 4 signed" });
    await openDrawer();
    await card(clicked.id).waitFor();
    // Opening the inbox marks seen, not read.
    await poll(async () => (await stack.personClient.get(clicked.id))?.seenAt ?? null).not.toBeNull();
    expect(await card(clicked.id).getAttribute("data-read")).toBe("false");
    expect(await card(clicked.id).getByTestId("unread-dot").count()).toBe(1);
    await card(clicked.id).locator(".title").click();
    await poll(() => card(clicked.id).getAttribute("data-read")).toBe("true");
    expect(await card(clicked.id).getByTestId("unread-dot").count()).toBe(0);
    expect((await stack.personClient.get(clicked.id))?.readAt).not.toBeNull();
    // Mark as unread puts the dot back (seen stays).
    await card(clicked.id).getByTestId("mark-unread").click();
    await poll(() => card(clicked.id).getAttribute("data-read")).toBe("false");
    expect((await stack.personClient.get(clicked.id))?.seenAt).not.toBeNull();
    await closeDrawer();
    // A Latest row opens its notification: read.
    await page.locator(`[data-testid=latest-row][data-notification-id="${fromLatest.id}"]`).click();
    await poll(async () => (await stack.personClient.get(fromLatest.id))?.readAt ?? null).not.toBeNull();
    await poll(() => card(fromLatest.id).getAttribute("data-read")).toBe("true");
    await closeDrawer();
  });

  it("has no Unseen tab, and counts on All and Unread that equal the lists; Mark all read empties Unread", async () => {
    await openDrawer();
    const tabs = await drawer().locator("input[name=drawer-status]").evaluateAll((list) => list.map((i) => (i as HTMLInputElement).value));
    expect(tabs).toEqual(["all", "unread", "snoozed", "dismissed", "history"]);
    const count = async (tab: string) => Number(await drawer().getByTestId(`tab-count-${tab}`).textContent());
    const server = async (unread: boolean) => (await stack.personClient.counts(unread ? { unread: true } : {}))[unread ? "unread" : "total"];
    await poll(async () => (await count("all")) === (await server(false)) && (await count("unread")) === (await server(true))).toBe(true);
    expect(await count("unread")).toBeGreaterThan(0);
    await drawer().locator("input[name=drawer-status][value=unread]").check();
    await poll(async () => drawer().locator("article[data-surface=drawer]").count()).toBe(await count("unread"));
    await screenshot(page, "life-tabs");
    await drawer().getByTestId("mark-all-read").click();
    await poll(() => count("unread")).toBe(0);
    await poll(() => drawer().locator("article[data-surface=drawer]").count()).toBe(0);
    expect(await server(true)).toBe(0);
    await drawer().locator("input[name=drawer-status][value=all]").check();
    await closeDrawer();
  });

  it("shows a TTL notification whose deadline passes on the page's clock as expired at once, its buttons disabled", async () => {
    // Far enough ahead that a busy machine publishes and shows it first.
    const deadline = Date.now() + 20_000;
    const n = await publish({ key: "ttl-live", title: "Offer open", actions: [runAction], retention: { policy: "TTL", expiresAt: new Date(deadline).toISOString() } });
    await openDrawer();
    await card(n.id).getByRole("button", { name: "Retry" }).waitFor();
    expect(await card(n.id).getAttribute("data-ended")).toBeNull();
    // Just past the deadline, well short of the 15 s tick after it: the deadline itself wakes the page.
    const pageNow = await page.evaluate(() => Date.now());
    await page.clock.runFor(deadline - pageNow + 500);
    await poll(() => card(n.id).getAttribute("data-ended")).toBe("EXPIRED");
    expect(await allDisabled(card(n.id))).toBe(true);
    expect(await card(n.id).locator(".state").textContent()).toMatch(/^Expired/);
    await screenshot(page, "life-expired-while-shown");
    await closeDrawer();
  });
});
