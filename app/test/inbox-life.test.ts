// An inbox people live in (Chromium against a real Herald): times say when a thing happened and
// only a producer's revision adds "updated"; a record that ends while shown (resolved, expired,
// or its TTL deadline passing on the page's clock) says so at once and its buttons are disabled.
// The page's clock is Playwright's (page.clock), which the dashboard's one clock reads.
// Screenshots: life-*.png.
import type { Notification, PublishNotificationInput } from "@herald/sdk";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Browser, suiteAvailability, launch, screenshot } from "./support/browser";
import { type Stack, startStack } from "./support/stack";
import { expectNoViolations } from "./support/axe";

const availability = suiteAvailability();

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
    await card(n.id).getByRole("button", { name: "Retry", exact: true }).waitFor();
    expect(await card(n.id).getByRole("button", { name: "Retry", exact: true }).isDisabled()).toBe(false);
    // The page's time stands still while the test looks (the ended card stays a moment).
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await stack.producer.resolve(n.id);
    await poll(() => card(n.id).getAttribute("data-ended")).toBe("RESOLVED");
    expect(await allDisabled(card(n.id))).toBe(true);
    expect(await card(n.id).locator(".state").textContent()).toMatch(/^Resolved/);
    expect(await card(n.id).locator(".new").count()).toBe(0);
    await screenshot(page, "life-resolved-while-shown");
    // Then it leaves the list (it is under History).
    await page.clock.runFor(3_000);
    await card(n.id).waitFor({ state: "detached" });
    await page.clock.resume();
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
    const tabs = await drawer()
      .locator("input[name=drawer-status]")
      .evaluateAll((list) => list.map((i) => (i as HTMLInputElement).value));
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

  it("takes a dismissal back within its undo window, by button and by Ctrl+Z, and sends it only when the window closes", async () => {
    const n = await publish({ key: "undo:one", title: "Nightly report" });
    const status = async () => (await stack.personClient.get(n.id))?.status;
    await openDrawer();
    await card(n.id).waitFor();
    // The page's time stands still (a busy machine must not close the window): the test moves it.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    const dismiss = () => card(n.id).getByRole("button", { name: "Dismiss “Nightly report”" });
    await dismiss().click();
    await card(n.id).waitFor({ state: "detached" });
    const notice = drawer().getByTestId("undo-notice");
    await notice.waitFor();
    expect(await notice.textContent()).toContain("Dismissed “Nightly report”");
    await screenshot(page, "life-undo");
    await notice.getByTestId("undo").click();
    await card(n.id).waitFor();
    expect(await status()).not.toBe("DISMISSED");

    // By keyboard: Enter on Dismiss, then Ctrl+Z.
    await dismiss().focus();
    await page.keyboard.press("Enter");
    await card(n.id).waitFor({ state: "detached" });
    await page.keyboard.press("Control+z");
    await card(n.id).waitFor();
    expect(await drawer().getByTestId("undo-notice").count()).toBe(0);
    expect(await status()).not.toBe("DISMISSED");

    // Left alone: sent when the window closes, and the notice goes.
    await dismiss().click();
    await card(n.id).waitFor({ state: "detached" });
    await page.clock.runFor(6_500);
    await poll(status).toBe("DISMISSED");
    await poll(() => drawer().getByTestId("undo-notice").count()).toBe(0);
    await page.clock.resume();
    await closeDrawer();
  });

  it("clears what was read with Undo, and dismisses it on the server when the window closes", async () => {
    const a = await publish({ key: "clear:a", title: "Weekly digest" });
    const b = await publish({ key: "clear:b", title: "Backup done" });
    await openDrawer();
    await card(b.id).waitFor();
    await drawer().getByTestId("mark-all-read").click();
    await poll(async () => (await stack.personClient.counts()).unread).toBe(0);
    await poll(() => card(a.id).getAttribute("data-read")).toBe("true");
    const listed = async () => (await stack.personClient.page({})).items.length;
    const before = await listed();
    await drawer().getByTestId("clear-all").click();
    await drawer().getByTestId("clear-all-confirm").click();
    await card(a.id).waitFor({ state: "detached" });
    await card(b.id).waitFor({ state: "detached" });
    await page.keyboard.press("Control+z");
    await card(a.id).waitFor();
    await card(b.id).waitFor();
    expect(await listed()).toBe(before);

    await drawer().getByTestId("clear-all").click();
    await drawer().getByTestId("clear-all-confirm").click();
    await card(a.id).waitFor({ state: "detached" });
    await page.clock.runFor(6_500);
    await poll(listed).toBe(0);
    expect((await stack.personClient.get(a.id))?.status).toBe("DISMISSED");
    await closeDrawer();
  });

  it("fits a phone: the drawer's header, tabs and actions in 120 px of 740, nothing wider than 320 px, messages under the list", async () => {
    const items = [
      await publish({ key: "phone:a", title: "A rather long title for a notification on a small phone screen" }),
      await publish({ key: "phone:b", title: "Short one", actions: [runAction] }),
    ];
    const phone = await browser.context.newPage();
    phone.setDefaultTimeout(30_000);
    await phone.setViewportSize({ width: 360, height: 740 });
    await phone.goto("/");
    await phone.getByRole("heading", { name: "Hello, Ada" }).waitFor();
    const phoneDrawer = phone.getByTestId("drawer");
    await phone.getByTestId("drawer-button").click();
    await phoneDrawer.locator(`article[data-notification-id="${items[1]!.id}"]`).waitFor();
    const listTop = await phoneDrawer.locator(".list").evaluate((el) => el.getBoundingClientRect().top);
    expect(listTop).toBeLessThanOrEqual(120);
    await screenshot(phone, "life-phone-drawer");
    // The scope, session and engagement menus fold away and come back.
    expect(await phoneDrawer.locator("#drawer-selects").isVisible()).toBe(false);
    await phoneDrawer.getByTestId("filters-toggle").click();
    expect(await phoneDrawer.locator("#drawer-selects").isVisible()).toBe(true);
    await phoneDrawer.getByTestId("filters-toggle").click();

    // A message sits under the list, never over a card's buttons.
    await phoneDrawer
      .locator(`article[data-notification-id="${items[0]!.id}"]`)
      .getByRole("button", { name: /^Dismiss/ })
      .click();
    const notice = phoneDrawer.getByTestId("undo-notice");
    await notice.waitFor();
    const noticeTop = await notice.evaluate((el) => el.getBoundingClientRect().top);
    const listBottom = await phoneDrawer.locator(".list").evaluate((el) => el.getBoundingClientRect().bottom);
    expect(noticeTop).toBeGreaterThanOrEqual(listBottom - 0.5);
    await screenshot(phone, "life-phone-undo");
    await notice.getByTestId("undo").click();
    await phone.close();
  });

  it("is no wider than a 320 px screen, in the drawer and on every page", async () => {
    const phone = await browser.context.newPage();
    await phone.setViewportSize({ width: 320, height: 740 });
    await phone.goto("/");
    await phone.getByTestId("drawer-button").click();
    await phone.getByTestId("drawer").locator("[data-testid=feed-list], .empty").first().waitFor();
    // 320 px wide: nothing is wider than the screen, in the drawer and on every page.
    // The page, and the open drawer's panel (the tab strip scrolls sideways inside itself).
    const widest = () =>
      phone.evaluate(() =>
        Math.max(document.documentElement.scrollWidth, ...[...document.querySelectorAll("dialog[open] .panel")].map((el) => el.scrollWidth)),
      );
    expect(await widest()).toBeLessThanOrEqual(320.5);
    await screenshot(phone, "life-phone-320-drawer");
    await phone.keyboard.press("Escape");
    for (const path of ["/", "/settings"]) {
      await phone.goto(path);
      await phone.locator("main h1").waitFor();
      expect(await widest()).toBeLessThanOrEqual(320.5);
      await screenshot(phone, `life-phone-320${path === "/" ? "-overview" : path.replace("/", "-")}`);
    }
    await phone.close();
  });

  it("puts messages on an ordinary page under the header, over no control, at the top and the bottom of the page", async () => {
    for (let i = 0; i < 6; i++) await publish({ key: `cover:${i}`, title: `Filler ${i}`, display: { presentation: "BANNER" } });
    const phone = await browser.context.newPage();
    await phone.setViewportSize({ width: 360, height: 740 });
    await phone.goto("/");
    await phone.locator("[data-testid=connection][data-state=live]").waitFor();
    await phone.getByTestId("quiet-toggle").click();
    const notice = phone.locator(".page-notices .notice").first();
    await notice.waitFor();
    /** Controls whose box meets a message's box (the message's own buttons left out). */
    const covered = () =>
      phone.evaluate(() => {
        const boxes = [...document.querySelectorAll(".page-notices .notice")].map((n) => n.getBoundingClientRect());
        const hit: string[] = [];
        for (const el of document.querySelectorAll<HTMLElement>("main a, main button, main input, main select, main summary, main textarea")) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          if (boxes.some((b) => r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top))
            hit.push(el.textContent?.trim().slice(0, 40) ?? el.tagName);
        }
        return hit;
      });
    expect(await covered()).toEqual([]);
    await phone.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    // At the end of the page every control can sit clear of the header and its messages.
    const last = phone.locator("main a, main button").last();
    const lastBox = (await last.boundingBox())!;
    const noticeBox = (await notice.boundingBox())!;
    expect(lastBox.y).toBeGreaterThanOrEqual(noticeBox.y + noticeBox.height);
    await screenshot(phone, "life-phone-message");
    await phone.getByRole("button", { name: "Turn off" }).click();
    await poll(() => phone.getByTestId("quiet-indicator").count()).toBe(0);
    await phone.close();
  });

  it("shows no badge number before the first count, and says offline with the time of the last sync", async () => {
    const tab = await browser.context.newPage();
    tab.setDefaultTimeout(30_000);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await tab.route("**/api/graphql", async (route) => {
      await gate;
      await route.continue();
    });
    await tab.goto("/");
    await tab.getByTestId("drawer-button").waitFor();
    expect(await tab.getByTestId("badge").count()).toBe(0);
    expect(await tab.getByTestId("drawer-button").getAttribute("aria-label")).toBe("Notifications");
    release();
    await tab.getByTestId("badge").waitFor();
    expect(await tab.getByTestId("drawer-button").getAttribute("aria-label")).toMatch(/^Notifications, \d+ unseen$/);
    await tab.unroute("**/api/graphql");
    await tab.locator("[data-testid=connection][data-state=live]").waitFor();

    await browser.context.setOffline(true);
    try {
      const banner = tab.getByTestId("offline-banner");
      await banner.waitFor();
      expect(await banner.textContent()).toMatch(/last synced (now|\d+ seconds? ago)/);
      await screenshot(tab, "life-offline");
    } finally {
      await browser.context.setOffline(false);
    }
    await tab.getByTestId("offline-banner").waitFor({ state: "detached" });
    await tab.close();
  });

  it("takes a 'waiting for' message away once the producer answers", async () => {
    const n = await publish({ key: "waiting", title: "Retry the build", actions: [runAction] });
    await openDrawer();
    await card(n.id).getByRole("button", { name: "Retry", exact: true }).click();
    const waiting = drawer().getByTestId("notices").getByText("is waiting for life");
    await waiting.waitFor();
    const [invocation] = (await stack.producer.actionInvocations({ plugin: "life" })).items;
    await stack.producer.acknowledgeActionInvocation(invocation!.id, "ACKNOWLEDGED", "Retried");
    await poll(() => card(n.id).getByTestId("invocation-state").getAttribute("data-state")).toBe("ACKNOWLEDGED");
    await waiting.waitFor({ state: "detached" });
    await closeDrawer();
  });

  it("has no axe violations on any page (overview, inbox, settings, a 404) and keeps Latest titles whole at 360 px", async () => {
    const long = await publish({ key: "latest:long", title: "Nightly backup of the billing database finished" });
    await page.goto("/");
    await page.locator(`[data-testid=latest-row][data-notification-id="${long.id}"]`).waitFor();
    await expectNoViolations(page);
    await openDrawer();
    await expectNoViolations(page);
    await closeDrawer();
    await page.goto("/settings");
    await page.locator("main h1").waitFor();
    await expectNoViolations(page);
    await page.goto("/no-such-page");
    await page.getByRole("heading", { name: "This page does not exist" }).waitFor();
    await expectNoViolations(page);

    const phone = await browser.context.newPage();
    await phone.setViewportSize({ width: 360, height: 740 });
    await phone.goto("/");
    const title = phone.locator(`[data-testid=latest-row][data-notification-id="${long.id}"] .row-title`);
    await title.waitFor();
    expect(await title.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await screenshot(phone, "life-phone-latest");
    await phone.close();
    await page.goto("/");
    await page.locator("[data-testid=connection][data-state=live]").waitFor();
  }, 240_000);

  it("shows a TTL notification whose deadline passes on the page's clock as expired at once, its buttons disabled", async () => {
    // Far enough ahead that a busy machine publishes and shows it first.
    const deadline = Date.now() + 20_000;
    const n = await publish({
      key: "ttl-live",
      title: "Offer open",
      actions: [runAction],
      retention: { policy: "TTL", expiresAt: new Date(deadline).toISOString() },
    });
    await openDrawer();
    await card(n.id).getByRole("button", { name: "Retry", exact: true }).waitFor();
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
