// What people expect of an inbox, in Chromium against a real Herald: personal notifications stay
// in the inbox unless a banner is asked for, banners put the most severe first; times never lie
// (never in the future, when it arrived, "updated" after a producer's revision); a finished operation offers no Cancel and a
// running one asks first; one form state per notification; days as headings; a History tab;
// "Latest" rows open their notification; "Loading…" while loading; desktop notifications from a
// background tab. Screenshots: inbox-*.png.
import type { PublishNotificationInput } from "@herald/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, suiteAvailability, launch, screenshot, toneOf } from "./support/browser";
import { type Stack, startStack } from "./support/stack";
import { expectNoViolations } from "./support/axe";

const availability = suiteAvailability();

/** expect.poll with room for a busy machine (its default gives up after one second). */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });

describe.skipIf(!availability.run)("the inbox in Chromium", () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;

  async function publish(input: Partial<PublishNotificationInput> & { key: string; title: string }) {
    const result = await stack.producer.publish({
      scope: "PERSON",
      ...(input.scope === undefined || input.scope === "PERSON" ? { personId: stack.person.id } : {}),
      source: { plugin: "inbox" },
      ...input,
    });
    if (!result.ok) throw new Error(result.message);
    return result.notification;
  }

  const drawer = () => page.locator("dialog[data-testid=drawer]");
  const drawerCard = (id: string) => drawer().locator(`article[data-surface=drawer][data-notification-id="${id}"]`);
  const banners = () => page.locator("article[data-surface=banner]");

  async function openDrawer() {
    if (!(await drawer().evaluate((d: HTMLDialogElement) => d.open))) await page.getByTestId("drawer-button").click();
    await drawer().locator("[data-testid=feed-list], .empty").first().waitFor();
  }
  async function closeDrawer() {
    if (await drawer().evaluate((d: HTMLDialogElement) => d.open)) await page.keyboard.press("Escape");
    await poll(() => drawer().evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
  }

  beforeAll(async () => {
    stack = await startStack();
    browser = await launch(stack.dashboardUrl);
    page = browser.page;
    page.setDefaultTimeout(30_000);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("says Loading… while the inbox loads, not that nothing is unseen", async () => {
    // Hold every GraphQL read until the loading state has been seen.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/graphql", async (route) => {
      await gate;
      await route.continue();
    });
    await page.goto(`/signin/${await stack.newSignInCode()}`);
    await page.getByRole("button", { name: "Continue to the dashboard" }).click();
    await page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
    await page.getByTestId("drawer-button").click();
    const sub = drawer().locator(".sub");
    expect(await sub.textContent()).toBe("Loading…");
    release();
    await poll(() => sub.textContent()).toBe("No unseen notifications");
    await page.unroute("**/api/graphql");
    await closeDrawer();
  });

  it("keeps a plain personal notification in the inbox, and shows the most severe banner first, three at most", async () => {
    await closeDrawer();
    const plain = await publish({ key: "plain", title: "Your export is ready" });
    expect(plain.display.presentation).toBe("INLINE");
    const error = await publish({ key: "banner:error", title: "Payments are failing", severity: "ERROR", display: { presentation: "BANNER" } });
    for (let i = 0; i < 4; i++)
      await publish({ key: `banner:ok-${i}`, title: `Deploy ${i} succeeded`, severity: "SUCCESS", display: { presentation: "BANNER" } });
    await page.locator("[data-testid=badge][data-count='6']").waitFor();
    await poll(() => banners().count()).toBe(3);
    expect(await banners().first().getAttribute("data-notification-id")).toBe(error.id);
    // Each card is drawn in its variant's tone (app/src/lib/tones.css).
    const errorTone = await toneOf(banners().first(), "error");
    expect(errorTone.tone).toBe(errorTone.palette);
    const successTone = await toneOf(banners().nth(1), "success");
    expect(successTone.tone).toBe(successTone.palette);
    // Not on the page: only in the inbox (the drawer keeps its list once opened).
    expect(await page.locator(`article[data-notification-id="${plain.id}"]:not([data-surface=drawer])`).count()).toBe(0);
    expect(await page.getByRole("button", { name: "2 more banners in notifications" }).count()).toBe(1);
    await screenshot(page, "inbox-banners");
    await expectNoViolations(page);
    await openDrawer();
    await drawerCard(plain.id).waitFor();
    await closeDrawer();
  });

  it("groups the inbox by day in the browser's zone: Today, Yesterday, then dates", async () => {
    await openDrawer();
    const headings = () => drawer().locator("[data-testid=day-group] h3").allTextContents();
    expect(await headings()).toEqual(["Today"]);
    await closeDrawer();
    // The same records seen from one and from three days later (the page's clock moved on).
    for (const [days, expected] of [
      [1, "Yesterday"],
      [3, new Date(Date.now()).toLocaleDateString("en-GB", { weekday: "long", day: "numeric", month: "long", timeZone: "Europe/Berlin" })],
    ] as const) {
      const later = await browser.context.newPage();
      await later.addInitScript((ms) => {
        const now = Date.now.bind(Date);
        Date.now = () => now() + ms;
      }, days * 86_400_000);
      await later.goto("/");
      await later.getByTestId("drawer-button").click();
      await later.locator("dialog[data-testid=drawer] [data-testid=day-group]").first().waitFor();
      expect(await later.locator("dialog[data-testid=drawer] [data-testid=day-group] h3").allTextContents()).toEqual([expected]);
      await later.close();
    }
  });

  it("never shows a time in the future, shows when it arrived and that a producer revised it", async () => {
    // A page whose clock runs 30 s behind the server's: a fresh record must still read "now".
    const behind = await browser.context.newPage();
    await behind.addInitScript(() => {
      const now = Date.now.bind(Date);
      Date.now = () => now() - 30_000;
    });
    await behind.goto("/");
    await behind.locator("[data-testid=latest-row]").first().waitFor();
    const fresh = await publish({ key: "fresh", title: "Just arrived" });
    const row = behind.locator(`[data-testid=latest-row][data-notification-id="${fresh.id}"] time`);
    await row.waitFor();
    expect(await row.textContent()).toBe("now");
    await behind.close();

    const revised = await stack.producer.update(fresh.id, { body: "Revised" });
    if (!revised.ok) throw new Error(revised.message);
    expect(revised.notification.updatedAt).not.toBe(revised.notification.createdAt);
    await openDrawer();
    const time = drawerCard(fresh.id).locator("time.created");
    // When it arrived (opening the inbox marks it seen, which moves updatedAt: the time stays),
    // and that a producer revised it since.
    await poll(() => drawerCard(fresh.id).getByTestId("revised").count()).toBe(1);
    expect(await time.getAttribute("datetime")).toBe(fresh.createdAt);
    for (const text of await drawer().locator("article time").allTextContents()) expect(text).not.toMatch(/^in /);
    await closeDrawer();
  });

  it("asks before cancelling a running operation and offers no Cancel once it has finished", async () => {
    const operation = (state: string) => ({ id: "deploy-9", type: "deploy", state, phase: "rolling out", elapsedSeconds: 12, cancellable: true });
    const actions = [
      { kind: "RUN_ACTION" as const, id: "cancel", label: "Cancel deploy", actionId: "deploy.cancel", fixedParams: { operationId: "deploy-9" } },
    ];
    const n = await publish({ key: "op", title: "Deploying 3.1", source: { plugin: "deployer-op" }, operation: operation("running"), actions });
    await openDrawer();
    const card = drawerCard(n.id);
    await card.getByRole("button", { name: "Cancel deploy" }).click();
    await card.getByTestId("cancel-confirm").waitFor();
    await screenshot(page, "inbox-cancel-confirm");
    await expectNoViolations(page);
    await card.getByRole("button", { name: "Keep it running" }).click();
    expect((await stack.producer.actionInvocations({ plugin: "deployer-op" })).items).toEqual([]);

    await publish({ key: "op", title: "Deployed 3.1", source: { plugin: "deployer-op" }, operation: operation("done"), actions });
    await poll(() => card.locator(".phase").textContent()).toBe("rolling out");
    await poll(() => card.getAttribute("data-revision")).toBe("2");
    expect(await card.getByRole("button", { name: "Cancel deploy" }).count()).toBe(0);
    await closeDrawer();
  });

  it("keeps one form state per notification, shared by its banner and inbox copies, and takes no second submit once done", async () => {
    const n = await publish({
      key: "form",
      title: "Approve the release",
      severity: "ERROR",
      display: { presentation: "BANNER" },
      source: { plugin: "releaser" },
      actions: [
        {
          kind: "RUN_ACTION",
          id: "approve",
          label: "Approve",
          actionId: "release.approve",
          fixedParams: { note: "$form.note" },
          form: [{ name: "note", label: "Note", type: "TEXT" }],
        },
      ],
    });
    const bannerForm = page.locator(`article[data-surface=banner][data-notification-id="${n.id}"] [data-testid=action-form]`);
    await bannerForm.locator("input[name=note]").fill("ship it");
    await openDrawer();
    const inboxForm = drawerCard(n.id).getByTestId("action-form");
    expect(await inboxForm.locator("input[name=note]").inputValue()).toBe("ship it");
    await inboxForm.getByRole("button", { name: "Approve" }).click();
    await poll(() => drawerCard(n.id).getByTestId("invocation-state").getAttribute("data-state")).toBe("PENDING");
    const [invocation] = (await stack.producer.actionInvocations({ plugin: "releaser" })).items;
    expect(invocation).toMatchObject({ notificationId: n.id, fixedParams: { note: "ship it" } });
    await stack.producer.acknowledgeActionInvocation(invocation!.id, "ACKNOWLEDGED", "Released");
    await poll(() => drawerCard(n.id).getByTestId("invocation-state").getAttribute("data-state")).toBe("ACKNOWLEDGED");
    expect(await inboxForm.getByRole("button", { name: "Approve" }).count()).toBe(0);
    expect(await inboxForm.locator("input[name=note]").isDisabled()).toBe(true);
    await closeDrawer();
    expect(await bannerForm.getByRole("button", { name: "Approve" }).count()).toBe(0);
    expect(await bannerForm.locator("input[name=note]").inputValue()).toBe("ship it");
    expect(await bannerForm.locator("input[name=note]").isDisabled()).toBe(true);
  });

  it("lists resolved and expired records under History, with times in sentence case", async () => {
    const resolved = await publish({ key: "history:resolved", title: "Backup finished" });
    const expired = await publish({ key: "history:expired", title: "Offer ran out" });
    const dismissed = await publish({ key: "history:dismissed", title: "Read me later" });
    await stack.producer.resolve(resolved.id);
    await stack.producer.expire(expired.id, "stale");
    await stack.personClient.dismiss(dismissed);
    await openDrawer();
    await drawer().locator("input[name=drawer-status][value=history]").check();
    await drawerCard(resolved.id).waitFor();
    await drawerCard(expired.id).waitFor();
    expect(await drawerCard(dismissed.id).count()).toBe(0);
    expect(await drawerCard(resolved.id).locator(".state").textContent()).toMatch(/^Resolved (now|\d+ seconds? ago)$/);
    expect(await drawerCard(expired.id).locator(".state").textContent()).toMatch(/^Expired /);
    await screenshot(page, "inbox-history");
    await expectNoViolations(page);
    await drawer().locator("input[name=drawer-status][value=dismissed]").check();
    await drawerCard(dismissed.id).waitFor();
    expect(await drawerCard(dismissed.id).locator(".state").textContent()).toMatch(/^Dismissed /);
    await drawer().locator("input[name=drawer-status][value=all]").check();
    await closeDrawer();
  });

  it("opens a notification from its Latest row on the overview, drawn in its variant's tone", async () => {
    const n = await publish({ key: "latest", title: "Contract signed", severity: "WARNING" });
    await page.goto("/");
    const row = page.locator(`[data-testid=latest-row][data-notification-id="${n.id}"]`);
    const tone = await toneOf(row, "warning");
    expect(tone.tone).toBe(tone.palette);
    await row.click();
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-notification-id") ?? null)).toBe(n.id);
    expect(await drawer().evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    await closeDrawer();
  });

  it("shows a desktop notification from a background tab at or above the chosen severity, asked for from Settings only", async () => {
    await browser.context.grantPermissions(["notifications"], { origin: stack.dashboardUrl });
    const tab = await browser.context.newPage();
    await tab.addInitScript(() => {
      const w = window as unknown as { __shown: { title: string; body: string }[]; __asked: number; __hidden: boolean; __last: Notification | null };
      w.__shown = [];
      w.__asked = 0;
      w.__hidden = false;
      w.__last = null;
      const Original = window.Notification;
      class Recording extends Original {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          w.__shown.push({ title, body: options?.body ?? "" });
          w.__last = this;
        }
        static override requestPermission(...args: Parameters<typeof Notification.requestPermission>) {
          w.__asked++;
          return Original.requestPermission(...args);
        }
      }
      Object.defineProperty(Recording, "permission", { get: () => Original.permission });
      window.Notification = Recording as typeof Notification;
      Object.defineProperty(Document.prototype, "visibilityState", { configurable: true, get: () => (w.__hidden ? "hidden" : "visible") });
      Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => w.__hidden });
    });
    await tab.goto("/");
    await tab.getByRole("heading", { name: "Hello, Ada" }).waitFor();
    await tab.goto("/settings");
    await tab.getByTestId("desktop-notifications").waitFor();
    expect(await tab.evaluate(() => (window as unknown as { __asked: number }).__asked)).toBe(0);
    await tab.getByLabel("Show them for").selectOption("WARNING");
    await tab.getByTestId("desktop-turn-on").click();
    await tab.getByTestId("desktop-state").waitFor();
    expect(await tab.evaluate(() => (window as unknown as { __asked: number }).__asked)).toBe(1);
    await screenshot(tab, "inbox-desktop-settings");

    // Visible: nothing is shown. Hidden: a WARNING is, an INFO is not.
    await tab.goto("/");
    await tab.locator("[data-testid=connection][data-state=live]").waitFor();
    const seen = await publish({ key: "desktop:visible", title: "While looking", severity: "ERROR" });
    await tab.locator(`[data-testid=latest-row][data-notification-id="${seen.id}"]`).waitFor();
    await tab.evaluate(() => {
      (window as unknown as { __hidden: boolean }).__hidden = true;
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await publish({ key: "desktop:info", title: "Low priority", severity: "INFO" });
    const warning = await publish({ key: "desktop:warning", title: "Disk almost full", body: "92% used on db-1", severity: "WARNING" });
    await tab.locator(`[data-testid=latest-row][data-notification-id="${warning.id}"]`).waitFor({ state: "attached" });
    await poll(() => tab.evaluate(() => (window as unknown as { __shown: { title: string }[] }).__shown)).toEqual([
      { title: "Disk almost full", body: "92% used on db-1" },
    ]);

    // Clicking it brings the tab forward with the notification open.
    await tab.evaluate(() => {
      const w = window as unknown as { __hidden: boolean; __last: Notification };
      w.__hidden = false;
      document.dispatchEvent(new Event("visibilitychange"));
      w.__last.dispatchEvent(new Event("click"));
    });
    await poll(() => tab.evaluate(() => document.activeElement?.getAttribute("data-notification-id") ?? null)).toBe(warning.id);
    await tab.close();
  });
});
