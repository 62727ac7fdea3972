// The companion in the dashboard, in Chromium against a real Herald: an observation card offers
// "Remember this" and "Not now", and quiet mode set by a producer (the person's companion) mutes
// the open page live, without a reload.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, suiteAvailability, launch, screenshot } from "./support/browser";
import { type Stack, startStack } from "./support/stack";

const availability = suiteAvailability();

describe.skipIf(!availability.run)("the companion in the dashboard", () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack();
    browser = await launch(stack.dashboardUrl);
    browser.page.setDefaultTimeout(10_000);
    await browser.page.goto(`/signin/${await stack.newSignInCode()}`);
    await browser.page.getByRole("button", { name: "Continue to the dashboard" }).click();
    await browser.page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const observe = async (fact: string) => {
    const r = await stack.producer.publishObservation({ personId: stack.person.id, fact, source: { plugin: "companion" } });
    if (!r.ok) throw new Error(r.message);
    return r.notification;
  };
  // An observation is a personal notification: inline, so it is in the inbox (the drawer).
  const card = (id: string) => browser.page.locator(`dialog[data-testid=drawer] article[data-notification-id="${id}"]`);
  async function openInbox() {
    if (!(await browser.page.locator("dialog[data-testid=drawer]").evaluate((d: HTMLDialogElement) => d.open)))
      await browser.page.getByTestId("drawer-button").click();
  }

  it("shows an observation with Remember this; clicking it stores the fact and the card goes", async () => {
    const n = await observe("Prefers short summaries");
    await openInbox();
    await card(n.id).waitFor({ timeout: 5_000 });
    expect(await card(n.id).getByText("Noticed", { exact: true }).count()).toBe(1);
    await screenshot(browser.page, "observation");
    await card(n.id).getByRole("button", { name: "Remember this", exact: true }).click();
    await card(n.id).waitFor({ state: "detached", timeout: 5_000 });
    await expect.poll(async () => (await stack.personClient.get(n.id))?.status).toBe("RESOLVED");
  });

  it("dismisses an observation with Not now", async () => {
    const n = await observe("Works late on Fridays");
    await openInbox();
    await card(n.id).getByRole("button", { name: "Not now", exact: true }).click();
    await card(n.id).waitFor({ state: "detached", timeout: 5_000 });
    await browser.page.getByTestId("undo-commit").click();
    await expect.poll(async () => (await stack.personClient.get(n.id))?.status).toBe("DISMISSED");
  });

  it("shows the muted state as soon as the companion turns quiet mode on, and clears it when turned off", async () => {
    const page = browser.page;
    expect(await page.getByTestId("quiet-indicator").count()).toBe(0);
    await stack.producer.setPersonQuietMode(stack.person.id, true);
    await page.getByTestId("quiet-indicator").waitFor({ timeout: 5_000 });
    expect(await page.getByTestId("quiet-toggle").getAttribute("aria-pressed")).toBe("true");
    await stack.producer.setPersonQuietMode(stack.person.id, false);
    await page.getByTestId("quiet-indicator").waitFor({ state: "detached", timeout: 5_000 });
  });
});
