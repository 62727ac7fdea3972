// Attachments in the dashboard, in Chromium against a real Herald: a person clicks a card's
// download follow-up and the browser saves the file the producer uploaded, through the
// dashboard's /api/assets route (the cookie's token; Herald checks the person may see it).
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, suiteAvailability, launch, screenshot } from "./support/browser";
import { type Stack, startStack } from "./support/stack";

const availability = suiteAvailability();

describe.skipIf(!availability.run)("attachments in the dashboard", () => {
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

  const card = (id: string) => browser.page.locator(`article[data-surface=banner][data-notification-id="${id}"]`);

  it("downloads the uploaded file when the person clicks the card's download follow-up", async () => {
    const contents = "date,status\n2026-11-30,failed\n".repeat(200);
    const asset = await stack.producer.uploadAsset(new TextEncoder().encode(contents), "build report.csv", "text/csv");
    const published = await stack.producer.publish({
      scope: "PERSON",
      personId: stack.person.id,
      key: "report:42",
      title: "Build 42 report",
      display: { presentation: "BANNER" },
      source: { plugin: "ci" },
      actions: [{ kind: "DOWNLOAD_ATTACHMENT_ASSET", id: "report", label: "Download report", assetId: asset.id }],
    });
    if (!published.ok) throw new Error(published.message);
    const link = card(published.notification.id).getByRole("link", { name: "Download report" });
    await link.waitFor({ timeout: 5_000 });
    await screenshot(browser.page, "attachment-card");

    const [download] = await Promise.all([browser.page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("build report.csv");
    expect(await download.failure()).toBeNull();
    expect(await readFile((await download.path())!, "utf8")).toBe(contents);
  });

  it("answers 404 through the dashboard for an asset no notification of this person names", async () => {
    const loose = await stack.producer.uploadAsset(new TextEncoder().encode("secret-contents-7f3a"), "loose.txt", "text/plain");
    const response = await browser.page.request.get(`/api/assets/${loose.id}`);
    expect(response.status()).toBe(404);
    expect(await response.text()).not.toContain("secret-contents-7f3a");
  });
});
