// Reader controls in the dashboard (Mark all read, Clear all, the Settings page) and automated
// accessibility checks (axe-core) of its main states: empty inbox, inbox with cards, drawer
// open, settings. Any violation fails the test.
import type { Notification, PublishNotificationInput } from "@herald/sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, suiteAvailability, launch, screenshot } from "./support/browser";
import { type Stack, startStack } from "./support/stack";
import { expectNoViolations, axeViolations } from "./support/axe";

const availability = suiteAvailability();

describe.skipIf(!availability.run)("reader controls and accessibility in Chromium", () => {
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
  const openDrawer = async () => {
    await page.getByTestId("drawer-button").click();
    await page.getByTestId("drawer").waitFor();
  };
  const closeDrawer = async () => {
    await page.keyboard.press("Escape");
    await page.getByTestId("drawer").waitFor({ state: "hidden" });
  };

  it("has no accessibility violations on the empty inbox", async () => {
    await page.getByText("You are all caught up").waitFor();
    await expectNoViolations(page);
    // The check can fail: an image without a text alternative is a critical violation.
    await page.evaluate(() => document.body.insertAdjacentHTML("beforeend", '<img id="axe-probe" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'));
    expect((await axeViolations(page)).some((line) => line.startsWith("image-alt"))).toBe(true);
    await page.evaluate(() => document.getElementById("axe-probe")?.remove());
  });

  it("has none with cards in the inbox, nor with the drawer open", async () => {
    for (const [i, severity] of (["INFO", "SUCCESS", "WARNING", "ERROR"] as const).entries()) {
      await publish({ key: `a11y-${i}`, title: `Card ${severity.toLowerCase()}`, body: "Something to read", severity, display: { presentation: "INLINE" } });
    }
    await page.getByRole("heading", { name: "Latest" }).waitFor();
    await page.getByText("Card error").first().waitFor();
    await expectNoViolations(page);
    await openDrawer();
    await expectNoViolations(page);
    await screenshot(page, "drawer-bulk-actions");
    await closeDrawer();
  });

  it("Mark all read marks everything seen; Clear all asks first, then dismisses what was read", async () => {
    // (Only-what-was-read is the server's rule, tested in server/test/api/reader-controls.test.ts:
    // here the open drawer itself marks whatever arrives as seen.)
    await openDrawer();
    await page.getByTestId("mark-all-read").click();
    await expect.poll(async () => (await stack.personClient.counts()).unseen).toBe(0);
    await page
      .getByText(/Marked \d+ as read|Everything was already read/)
      .first()
      .waitFor();
    const before = (await stack.personClient.page({})).items.length;
    expect(before).toBeGreaterThan(1);
    await page.getByTestId("clear-all").click();
    await page.getByRole("button", { name: "Cancel" }).click();
    expect((await stack.personClient.page({})).items.length).toBe(before);
    await page.getByTestId("clear-all").click();
    await expectNoViolations(page);
    await page.getByTestId("clear-all-confirm").click();
    await page.getByText(`Cleared ${before} read notifications.`).first().waitFor();
    await page.getByTestId("undo-commit").click();
    await expect.poll(async () => (await stack.personClient.page({})).items.length).toBe(0);
    await closeDrawer();
  });

  it("saves muted sources, severity floor and quiet hours on the Settings page, and names a bad time zone", async () => {
    await page.getByTestId("settings-link").click();
    await page.getByRole("heading", { name: "Settings" }).waitFor();
    await expect.poll(() => page.getByTestId("settings-save").isEnabled()).toBe(true);
    await expectNoViolations(page);
    for (const plugin of ["ci", "deploy"]) {
      await page.getByLabel("Mute a source").fill(plugin);
      await page.getByLabel("For how long").selectOption("forever");
      await page.getByTestId("mute-add").click();
      await page.getByTestId("mute-row").filter({ hasText: plugin }).waitFor();
    }
    await page.getByLabel("Lowest severity pushed").selectOption("WARNING");
    await page.getByTestId("quiet-hours-on").check();
    await page.getByLabel("From").fill("22:00");
    await page.getByLabel("until").fill("07:00");
    await page.getByLabel("Time zone").fill("Nowhere/Land");
    await page.getByTestId("settings-save").click();
    await page.getByTestId("settings-error").waitFor();
    expect(await page.getByLabel("Time zone").getAttribute("aria-invalid")).toBe("true");
    await expectNoViolations(page);
    await page.getByLabel("Time zone").fill("Europe/Berlin");
    await page.getByTestId("settings-save").click();
    await page.getByTestId("settings-error").waitFor({ state: "detached" });
    await expect
      .poll(() => stack.personClient.readerPreferences())
      .toMatchObject({
        mutedPlugins: ["ci", "deploy"],
        severityFloor: "WARNING",
        quietHours: { start: "22:00", end: "07:00", timeZone: "Europe/Berlin", allowErrors: true },
      });
    await screenshot(page, "settings");
    await page.reload();
    await expect.poll(() => page.getByTestId("mute-row").allTextContents()).toEqual(["ci until you unmute it Unmute", "deploy until you unmute it Unmute"]);
  });
});
