// "Mute this source" from a card (for an hour, a day or until unmuted) with Undo, and the mutes
// listed and undone in Settings, in Chromium on a desktop and on a 360x740 phone, with axe.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, suiteAvailability, launch, screenshot } from "./support/browser";
import { type Stack, startStack } from "./support/stack";
import { expectNoViolations } from "./support/axe";

const availability = suiteAvailability();

describe.skipIf(!availability.run)("muting a source from a card and in Settings, in Chromium", () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    stack = await startStack();
    browser = await launch(stack.dashboardUrl);
    page = browser.page;
    page.setDefaultTimeout(15_000);
    // The page's clock: flows as usual until the last test moves it past a mute's end.
    await page.clock.install();
    await page.goto(`/signin/${await stack.newSignInCode()}`);
    await page.getByRole("button", { name: "Continue to the dashboard" }).click();
    await page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const publish = async (plugin: string, key: string, title: string) => {
    const r = await stack.producer.publish({ scope: "PERSON", personId: stack.person.id, source: { plugin }, key, title });
    if (!r.ok) throw new Error(r.message);
  };
  const card = (title: string) => page.getByTestId("drawer").locator("article").filter({ hasText: title }).first();
  const mutes = async () => (await stack.personClient.readerPreferences()).mutes.map((m) => ({ plugin: m.plugin, ends: m.until !== null }));

  it("mutes a card's source for an hour, takes it back with Undo, then mutes it until unmuted", async () => {
    await publish("deploys", "m1", "Deploy finished");
    await page.getByTestId("drawer-button").click();
    await page.getByTestId("drawer").waitFor();
    await card("Deploy finished").waitFor();
    await card("Deploy finished").getByText("Mute", { exact: true }).click();
    const menu = card("Deploy finished").getByTestId("mute-menu");
    await menu.waitFor();
    expect(await menu.getAttribute("aria-label")).toBe("Mute notifications from deploys");
    await expectNoViolations(page);
    await screenshot(page, "mute-menu");

    // Undo: the mute is never sent.
    await menu.getByRole("button", { name: "For 1 hour" }).click();
    await page
      .getByText(/Muted deploys until /)
      .first()
      .waitFor();
    await page.getByTestId("undo").first().click();
    await page.getByText(/Muted deploys until /).waitFor({ state: "detached" });
    // An hour, sent at once by closing its notice (the undo window's end).
    await card("Deploy finished").getByText("Mute", { exact: true }).click();
    await menu.getByRole("button", { name: "For 1 hour" }).click();
    await page.getByTestId("undo-commit").first().click();
    await expect.poll(mutes).toEqual([{ plugin: "deploys", ends: true }]);
    // The Undo above sent nothing: the only mutation was the committed one, with an end.

    // Muted sources stay out of the inbox: the card leaves, another source's arrives.
    await card("Deploy finished").waitFor({ state: "detached" });
    await publish("builds", "m2", "Build green");
    await card("Build green").waitFor();

    await card("Build green").getByText("Mute", { exact: true }).click();
    await card("Build green").getByTestId("mute-menu").getByRole("button", { name: "Until I unmute it" }).click();
    await page.getByText("Muted builds until you unmute it.").first().waitFor();
    await page.getByTestId("undo-commit").first().click();
    await expect.poll(mutes).toEqual([
      { plugin: "deploys", ends: true },
      { plugin: "builds", ends: false },
    ]);
    await page.keyboard.press("Escape");
    await page.getByTestId("drawer").waitFor({ state: "hidden" });
  });

  it("lists the mutes in Settings with their ends and unmutes one there, on a 360x740 phone", async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByTestId("settings-link").click();
    await page.getByRole("heading", { name: "Settings" }).waitFor();
    const rows = page.getByTestId("mute-row");
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.filter({ hasText: "builds" }).textContent()).toContain("until you unmute it");
    expect(await rows.filter({ hasText: "deploys" }).textContent()).toMatch(/deploys until \S/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoViolations(page);
    await screenshot(page, "settings-mutes-phone");

    await page.getByRole("button", { name: "Unmute builds" }).click();
    await page.getByText("builds is no longer muted.").first().waitFor();
    await expect.poll(mutes).toEqual([{ plugin: "deploys", ends: true }]);
    await expect.poll(() => rows.count()).toBe(1);

    // A bad name is refused, naming the field, and nothing changes.
    await page.getByLabel("Mute a source").fill("p".repeat(300));
    await page.getByTestId("mute-add").click();
    await page.getByTestId("settings-error").waitFor();
    expect(await page.getByLabel("Mute a source").getAttribute("aria-invalid")).toBe("true");
    expect(await mutes()).toEqual([{ plugin: "deploys", ends: true }]);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  // The server lets a plugin through again once its mute ends, by its clock and with no event;
  // the open page wakes at that end and lists the plugin's records again without a reload.
  it("shows a source's records again, and no longer lists the mute in Settings, when its timed mute ends while the page is open", async () => {
    await page.goto("/");
    await page.getByTestId("drawer-button").click();
    await card("Build green").waitFor();
    expect(await card("Deploy finished").count()).toBe(0);
    await page.clock.fastForward(60 * 60 * 1000 + 5_000);
    await card("Deploy finished").waitFor();
    await page.keyboard.press("Escape");
    // Settings no longer lists it (the server still would: its clock has not moved).
    await page.getByTestId("settings-link").click();
    await page.getByTestId("mutes-none").waitFor();
    expect(await page.getByTestId("mute-row").count()).toBe(0);
  });
});
