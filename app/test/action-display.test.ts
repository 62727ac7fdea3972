// Direct action displays in Chromium against a real Herald: the person runs a follow-up, the
// producer answers with a MARKDOWN display (MODAL by default) and a ui effect; the modal shows
// the rendered, safe markdown once, in the tab that ran the action only, closes with Escape, the
// effect runs once, and neither a reload nor a second tab shows it again. BANNER and INLINE answers use
// their own surfaces; a phone fits the modal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Notification } from "@herald/sdk";
import type { Page } from "playwright-core";
import { type Browser, suiteAvailability, launch, screenshot, toneOf } from "./support/browser";
import { type Stack, startStack } from "./support/stack";

const availability = suiteAvailability();

const LONG = Array.from({ length: 60 }, (_, i) => `Line ${i + 1} of the export log.`).join("\n\n");
const BODY = [
  "**Export complete**: 3 files written.",
  '<script>window.__injected = true</script><img src=x onerror="window.__injected = true">',
  "[the report](https://example.com/report) and [not this](javascript:window.__injected=true)",
  LONG,
].join("\n\n");

describe.skipIf(!availability.run)("direct action displays in the dashboard", () => {
  let stack: Stack;
  let browser: Browser;
  /** Server-data requests of each tab (what the reload_application_actions effect causes). */
  const dataRequests = new Map<Page, string[]>();
  const watchData = (page: Page) => {
    dataRequests.set(page, []);
    page.on("request", (request) => {
      if (request.url().includes("__data.json")) dataRequests.get(page)!.push(request.url());
    });
  };
  const dataCount = (page: Page) => dataRequests.get(page)!.length;

  beforeAll(async () => {
    stack = await startStack();
    browser = await launch(stack.dashboardUrl);
    browser.page.setDefaultTimeout(30_000);
    watchData(browser.page);
    await browser.page.goto(`/signin/${await stack.newSignInCode()}`);
    await browser.page.getByRole("button", { name: "Continue to the dashboard" }).click();
    await browser.page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const publishRunnable = async (key: string): Promise<Notification> => {
    const r = await stack.producer.publish({
      scope: "PERSON",
      personId: stack.person.id,
      key,
      title: "Export the quarter",
      source: { plugin: "exporter" },
      display: { presentation: "BANNER" },
      actions: [{ kind: "RUN_ACTION", id: "export", label: "Export", actionId: "export.run" }],
    });
    if (!r.ok) throw new Error(r.message);
    return r.notification;
  };
  const banner = (page: Page, id: string) => page.locator(`article[data-surface=banner][data-notification-id="${id}"]`);
  const display = (page: Page) => page.locator("dialog[data-testid=action-display]");
  const displayOpen = (page: Page) => display(page).evaluate((d: HTMLDialogElement) => d.open);
  const invocationState = (page: Page, id: string) => banner(page, id).getByTestId("invocation-state").getAttribute("data-state");
  /** Runs the follow-up in `page` and returns the invocation the producer receives. */
  async function runAndReceive(page: Page, n: Notification): Promise<string> {
    await banner(page, n.id).getByRole("button", { name: "Export", exact: true }).click();
    await expect.poll(() => invocationState(page, n.id), { timeout: 20_000 }).toBe("PENDING");
    const pending = await stack.producer.actionInvocations({ plugin: "exporter" });
    const mine = pending.items.filter((i) => i.notificationId === n.id);
    expect(mine).toHaveLength(1);
    return mine[0]!.id;
  }

  it("shows the answer's markdown display once as a modal in the tab that ran the action, runs its effect once, and not after a reload", async () => {
    const page = browser.page;
    const n = await publishRunnable("export:desktop");
    await banner(page, n.id).waitFor();
    // A second tab of the same person: it sees the outcome on the card but ran nothing.
    const other = await browser.context.newPage();
    watchData(other);
    await other.goto("/");
    await banner(other, n.id).waitFor();

    const invocationId = await runAndReceive(page, n);
    const before = { page: dataCount(page), other: dataCount(other) };
    const answered = await stack.producer.acknowledgeActionInvocation(invocationId, "ACKNOWLEDGED", {
      message: "Exported",
      display: { format: "MARKDOWN", title: "Export complete", body: BODY, variant: "SUCCESS" },
      uiEffects: { reload_application_actions: true },
    });
    expect(answered.display?.presentation).toBe("MODAL");

    await expect.poll(() => displayOpen(page), { timeout: 20_000 }).toBe(true);
    const dialog = display(page);
    expect(await dialog.getByRole("heading", { level: 2 }).textContent()).toBe("Export complete");
    // Rendered markdown, never raw HTML or a script link.
    expect(await dialog.locator("strong").first().textContent()).toBe("Export complete");
    expect(await dialog.locator("script, img").count()).toBe(0);
    expect(await dialog.getByText("<script>window.__injected = true</script>", { exact: false }).count()).toBe(1);
    const link = dialog.getByRole("link", { name: "the report" });
    expect(await link.getAttribute("href")).toBe("https://example.com/report");
    expect(await link.getAttribute("rel")).toContain("noopener");
    expect(await dialog.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    // Accessible: a modal dialog named by its title, focus inside it, and the long body scrolls inside.
    expect(await dialog.getAttribute("aria-labelledby")).toBe(`action-display-${invocationId}-title`);
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    const body = dialog.getByTestId("action-display-body");
    expect(await body.evaluate((b) => b.scrollHeight > b.clientHeight)).toBe(true);
    expect(await dialog.getByRole("button", { name: "Close", exact: true }).isVisible()).toBe(true);
    await screenshot(page, "action-display-modal");

    await page.keyboard.press("Escape");
    await expect.poll(() => displayOpen(page)).toBe(false);
    await expect.poll(() => invocationState(page, n.id)).toBe("ACKNOWLEDGED");

    // The effect ran once, in this tab only: a notification's effect published after it (a
    // marker every tab applies) is the next reload here and the only one in the other tab.
    await expect.poll(() => dataCount(page) - before.page, { timeout: 20_000 }).toBe(1);
    const marker = await stack.producer.publish({
      scope: "PERSON",
      personId: stack.person.id,
      key: "effects-marker",
      title: "Marker",
      source: { plugin: "marker" },
      display: { presentation: "BANNER" },
      uiEffects: { reload_application_actions: true },
    });
    if (!marker.ok) throw new Error(marker.message);
    await expect.poll(() => dataCount(page) - before.page, { timeout: 20_000 }).toBe(2);
    await expect.poll(() => dataCount(other) - before.other, { timeout: 20_000 }).toBe(1);

    // The second tab learnt the outcome from the same stream but shows no display.
    expect(await invocationState(other, n.id)).toBe("ACKNOWLEDGED");
    expect(await displayOpen(other)).toBe(false);
    await other.close();

    // After a reload the card shows the settled invocation (its snapshot was read) and nothing pops up.
    await page.reload();
    await expect.poll(() => invocationState(page, n.id), { timeout: 20_000 }).toBe("ACKNOWLEDGED");
    await banner(page, marker.notification.id).waitFor();
    expect(await displayOpen(page)).toBe(false);
  });

  it("shows a BANNER answer as a banner until closed and an INLINE one as a notice, with no modal", async () => {
    const page = browser.page;
    const n = await publishRunnable("export:banner");
    await banner(page, n.id).waitFor();
    const first = await runAndReceive(page, n);
    await stack.producer.acknowledgeActionInvocation(first, "ACKNOWLEDGED", {
      display: { title: "Export queued", body: "<b>3</b> files", presentation: "BANNER", variant: "WARNING" },
    });
    const shown = page.getByTestId("action-display-banner");
    await shown.waitFor();
    expect(await shown.locator("h2").textContent()).toBe("Export queued");
    expect(await shown.locator("b").count()).toBe(0); // TEXT: shown as written
    expect(await shown.getByText("<b>3</b> files").count()).toBe(1);
    expect(await shown.getAttribute("class")).toContain("variant-warning");
    const shownTone = await toneOf(shown, "warning");
    expect(shownTone.tone).toBe(shownTone.palette);
    expect(await displayOpen(page)).toBe(false);
    await shown.getByRole("button", { name: "Close “Export queued”" }).click();
    await expect.poll(() => shown.count()).toBe(0);

    const second = await runAndReceive(page, n);
    await stack.producer.acknowledgeActionInvocation(second, "ACKNOWLEDGED", {
      display: { title: "Export started", body: "in the background", presentation: "INLINE" },
    });
    await page.getByTestId("notices").getByText("Export started: in the background").waitFor();
    expect(await displayOpen(page)).toBe(false);
  });

  it("asks the next question through the answer's own form, and the producer receives the reply as an invocation", async () => {
    const page = browser.page;
    const n = await publishRunnable("export:ask");
    await banner(page, n.id).waitFor();
    const first = await runAndReceive(page, n);
    await stack.producer.acknowledgeActionInvocation(first, "ACKNOWLEDGED", {
      display: { title: "Which format?", dismissible: false },
      actions: [
        {
          kind: "RUN_ACTION",
          id: "format",
          label: "Export as",
          actionId: "export.format",
          form: [{ name: "format", label: "Format", type: "SELECT", options: ["csv", "json"], required: true }],
        },
      ],
    });
    await expect.poll(() => displayOpen(page), { timeout: 20_000 }).toBe(true);
    const dialog = display(page);
    // It cannot be closed: no Close button, and Escape leaves it open.
    expect(await dialog.getByRole("button", { name: "Close", exact: true }).count()).toBe(0);
    await page.keyboard.press("Escape");
    expect(await displayOpen(page)).toBe(true);
    await dialog.getByLabel("Format").selectOption("json");
    await dialog.getByRole("button", { name: "Export as" }).click();
    await expect.poll(() => displayOpen(page), { timeout: 20_000 }).toBe(false);
    const pending = await stack.producer.actionInvocations({ plugin: "exporter" });
    const reply = pending.items.filter((i) => i.notificationId === n.id);
    expect(reply).toMatchObject([{ actionId: "format", targetActionId: "export.format", values: { format: "json" }, fixedParams: null }]);
    await stack.producer.acknowledgeActionInvocation(reply[0]!.id, "ACKNOWLEDGED", { display: { title: "Exported as JSON" } });
    await expect.poll(() => displayOpen(page), { timeout: 20_000 }).toBe(true);
    expect(await dialog.locator("h2").textContent()).toBe("Exported as JSON");
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    expect(await displayOpen(page)).toBe(false);
  });

  it("fits a phone: the modal stays within the screen, its body scrolls and Close stays reachable", async () => {
    const page = browser.page;
    await page.setViewportSize({ width: 390, height: 740 });
    try {
      const n = await publishRunnable("export:phone");
      await banner(page, n.id).waitFor();
      const invocationId = await runAndReceive(page, n);
      await stack.producer.acknowledgeActionInvocation(invocationId, "FAILED", { display: { title: "Export failed", body: LONG } });
      await expect.poll(() => displayOpen(page), { timeout: 20_000 }).toBe(true);
      const dialog = display(page);
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.y + box.height).toBeLessThanOrEqual(740);
      expect(await dialog.getAttribute("class")).toContain("variant-error");
      const modal = await toneOf(dialog, "error");
      expect(modal.tone).toBe(modal.palette);
      const close = dialog.getByRole("button", { name: "Close", exact: true });
      const closeBox = (await close.boundingBox())!;
      expect(closeBox.y + closeBox.height).toBeLessThanOrEqual(740);
      await screenshot(page, "action-display-phone");
      await close.click();
      await expect.poll(() => displayOpen(page)).toBe(false);
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
});
