// Read apart from seen in the dashboard (Chromium against a real Herald): unread cards carry a dot
// and a bold title, each card marks itself read or unread, the drawer has an Unread tab, Mark all
// read reads without dismissing, Clear all leaves an unread ERROR that was only glanced at, and
// the badge equals what the lists hold with muted sources, a severity floor and quiet mode, live
// and after a reload. Axe finds no violation in the new states.
import type { Notification, NotificationFilter, PublishNotificationInput } from "@herald/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Browser, suiteAvailability, launch, screenshot } from "./support/browser";
import { type Stack, startStack } from "./support/stack";
import { expectNoViolations } from "./support/axe";

const availability = suiteAvailability();

describe.skipIf(!availability.run)("read state in Chromium", () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    stack = await startStack();
    browser = await launch(stack.dashboardUrl);
    page = browser.page;
    page.setDefaultTimeout(10_000);
    await page.goto(`/signin/${await stack.newSignInCode()}`);
    await page.getByRole("button", { name: "Continue to the dashboard" }).click();
    await page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
  }, 300_000);
  // A test that failed with the drawer open must not leave it covering the page for the next.
  beforeEach(async () => {
    if (await drawer().isVisible()) await closeDrawer();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function publish(input: Partial<PublishNotificationInput> & { key: string; title: string }): Promise<Notification> {
    const r = await stack.producer.publish({ scope: "PERSON", personId: stack.person.id, source: { plugin: "ci" }, ...input });
    if (!r.ok) throw new Error(r.message);
    return r.notification;
  }
  const drawer = () => page.getByTestId("drawer");
  const card = (id: string) => drawer().locator(`article[data-notification-id="${id}"]`);
  const badge = (count: number) => page.locator(`[data-testid=badge][data-count='${count}']`);
  const badgeCount = async () => Number(await page.getByTestId("badge").getAttribute("data-count"));
  const openDrawer = async () => {
    await page.getByTestId("drawer-button").click();
    await drawer().waitFor();
  };
  const closeDrawer = async () => {
    await page.keyboard.press("Escape");
    await drawer().waitFor({ state: "hidden" });
  };
  const showTab = (name: string) => drawer().getByRole("radio", { name, exact: true }).check();
  const titleWeight = (id: string) =>
    card(id)
      .locator(".title")
      .evaluate((el) => Number(getComputedStyle(el).fontWeight));
  /** What the server lists and counts for a filter (the person's own client, not the dashboard). */
  const server = async (filter: NotificationFilter = {}) => ({
    counts: await stack.personClient.counts(filter),
    ids: (await stack.personClient.page({ first: 100, filter })).items.map((n) => n.id).sort(),
  });
  /** A clean inbox: everything read, then cleared. */
  async function clearInbox() {
    await stack.personClient.markAllRead();
    await stack.personClient.dismissAll({ unread: false });
    await badge(0).waitFor();
  }

  it("shows unread cards with a dot and a bold title; opening the bell sees them only; each card marks itself read and unread", async () => {
    const n = await publish({ key: "dot", title: "Dot until read", display: { presentation: "INLINE" } });
    await badge(1).waitFor();
    await openDrawer();
    await card(n.id).waitFor();
    // Opening the bell marks seen, not read.
    await expect.poll(async () => (await stack.personClient.get(n.id))?.status).toBe("SEEN");
    expect((await stack.personClient.get(n.id))?.readAt).toBeNull();
    await card(n.id).getByTestId("unread-dot").waitFor();
    expect(await card(n.id).getAttribute("data-read")).toBe("false");
    expect(await titleWeight(n.id)).toBeGreaterThanOrEqual(700);
    await expectNoViolations(page);
    await screenshot(page, "read-state-unread-card");

    await card(n.id).getByTestId("mark-read").click();
    await card(n.id).getByTestId("mark-unread").waitFor();
    expect(await card(n.id).getByTestId("unread-dot").count()).toBe(0);
    expect(await titleWeight(n.id)).toBeLessThan(700);
    expect((await stack.personClient.get(n.id))?.readAt).not.toBeNull();
    await expectNoViolations(page);

    await card(n.id).getByTestId("mark-unread").click();
    await card(n.id).getByTestId("unread-dot").waitFor();
    const after = await stack.personClient.get(n.id);
    expect(after).toMatchObject({ status: "SEEN", readAt: null });
    expect(await badgeCount()).toBe(0); // unread again does not bring the badge back
    await closeDrawer();
  });

  it("follows a read from another tab or device live", async () => {
    const n = await publish({ key: "elsewhere", title: "Read elsewhere" });
    await openDrawer();
    await card(n.id).getByTestId("unread-dot").waitFor();
    await stack.personClient.markRead([n.id]);
    await card(n.id).getByTestId("mark-unread").waitFor();
    expect(await card(n.id).getByTestId("unread-dot").count()).toBe(0);
    await stack.personClient.markUnread([n.id]);
    await card(n.id).getByTestId("unread-dot").waitFor();
    await closeDrawer();
  });

  it("lists only unread ones in the Unread tab, as many as the server counts", async () => {
    await clearInbox();
    const a = await publish({ key: "tab-a", title: "Tab A" });
    const b = await publish({ key: "tab-b", title: "Tab B" });
    const c = await publish({ key: "tab-c", title: "Tab C" });
    await stack.personClient.markRead([c.id]);
    await openDrawer();
    await showTab("Unread");
    await card(a.id).waitFor();
    await card(b.id).waitFor();
    expect(await card(c.id).count()).toBe(0);
    expect(await drawer().locator("article").count()).toBe((await server({ unread: true })).ids.length);
    await expectNoViolations(page);
    await screenshot(page, "read-state-unread-tab");
    // Marking one read lets it go from the tab.
    await card(a.id).getByTestId("mark-read").click();
    await card(a.id).waitFor({ state: "detached" });
    expect(await drawer().locator("article").count()).toBe((await stack.personClient.counts()).unread);
    await showTab("All");
    await closeDrawer();
  });

  it("Mark all read reads without dismissing; Clear all leaves an unread ERROR that was only glanced at", async () => {
    await clearInbox();
    const info = await publish({ key: "bulk-info", title: "Bulk info" });
    const warning = await publish({ key: "bulk-warning", title: "Bulk warning", severity: "WARNING" });
    await openDrawer();
    await card(warning.id).waitFor();
    await drawer().getByTestId("mark-all-read").click();
    await expect.poll(async () => (await stack.personClient.counts()).unread).toBe(0);
    expect((await server()).ids).toEqual([info.id, warning.id].sort()); // nothing dismissed
    await card(info.id).getByTestId("mark-unread").waitFor();

    // An ERROR arrives while the drawer is open: shown (so seen), never opened.
    const error = await publish({ key: "bulk-error", title: "Disk full", severity: "ERROR" });
    await card(error.id).waitFor();
    await expect.poll(async () => (await stack.personClient.get(error.id))?.status).toBe("SEEN");
    await drawer().getByTestId("clear-all").click();
    await drawer().getByTestId("clear-all-confirm").click();
    await page.getByTestId("undo-commit").click();
    await expect.poll(async () => (await server()).ids).toEqual([error.id]);
    await card(info.id).waitFor({ state: "detached" });
    await card(error.id).getByTestId("unread-dot").waitFor();
    await closeDrawer();
  });

  it("keeps the badge equal to the lists with muted sources and a severity floor, live and after a reload", async () => {
    await clearInbox();
    await stack.personClient.updatePreferences({ mutedPlugins: ["noisy"], severityFloor: "WARNING" });
    const shown = [
      await publish({ key: "floor-warning", title: "Pushed warning", severity: "WARNING" }),
      await publish({ key: "floor-error", title: "Pushed error", severity: "ERROR" }),
    ];
    await publish({ key: "floor-info", title: "Below the floor", severity: "INFO" });
    await publish({ key: "floor-success", title: "Also below", severity: "SUCCESS" });
    await publish({ key: "muted-error", title: "Muted error", severity: "ERROR", source: { plugin: "noisy" } });
    const controls: NotificationFilter = { excludePlugins: ["noisy"], severities: ["WARNING", "ERROR"] };
    // What the server lists with the same filter the dashboard uses: the two pushed ones.
    expect((await server(controls)).ids).toEqual(shown.map((n) => n.id).sort());
    expect((await server(controls)).counts.unseen).toBe(2);

    await badge(2).waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
    await page.getByTestId("badge").waitFor();
    // The reloaded page settles on what it lists: still 2 (it counted all 5 before).
    await expect.poll(badgeCount).toBe(2);
    await openDrawer();
    await expect.poll(() => drawer().locator("article").count()).toBe(2);
    for (const n of shown) await card(n.id).waitFor();
    await badge(0).waitFor(); // the open drawer saw them
    expect((await server(controls)).counts.unseen).toBe(0);
    await closeDrawer();
    await stack.personClient.updatePreferences({ mutedPlugins: [], severityFloor: "INFO" });
  });

  it("counts what quiet mode holds back in the badge and the list, quietly, live and after a reload", async () => {
    await clearInbox();
    await page.getByTestId("quiet-toggle").click();
    await page.getByTestId("quiet-indicator").waitFor();
    await expect.poll(async () => (await stack.personClient.readerPreferences()).quietMode).toBe(true);
    const held = [await publish({ key: "held-1", title: "Held one" }), await publish({ key: "held-2", title: "Held two", severity: "ERROR" })];
    // Not pushed while quiet, yet listed by the server: the badge follows the list.
    expect((await server()).counts.unseen).toBe(2);
    await badge(2).waitFor({ timeout: 20_000 });
    // Quietly: listed and counted, but no banner pops up for them.
    expect(await page.locator(`article[data-surface=banner][data-key^="held-"]`).count()).toBe(0);
    await expectNoViolations(page);
    await page.reload();
    await page.getByTestId("quiet-indicator").waitFor();
    await expect.poll(badgeCount).toBe(2);
    await openDrawer();
    for (const n of held) await card(n.id).waitFor();
    expect(await drawer().locator("article").count()).toBe((await server()).ids.length);
    await badge(0).waitFor();
    await closeDrawer();
    await page.getByTestId("quiet-toggle").click();
    await page.getByTestId("quiet-indicator").waitFor({ state: "detached" });
  });
});
