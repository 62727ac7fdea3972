// <herald-inbox> in a plain HTML page (sdk/examples/inbox.html, served as files by a static
// server, loading sdk/dist/herald-inbox.js with no bundler) against a real Herald server: the bell
// counts what arrives live, opening a card reads it, dismiss offers undo, a follow-up and a form
// reach the producer, and axe finds nothing inside the shadow root. Screenshots: element-*.png.
import { createHeraldClient, type HeraldClient, type Notification, type PublishNotificationInput } from "@herald/sdk";
import { createTempDir, createTempSqlite, freePort, type TempDir, heraldCli, type SpawnedHerald, spawnHerald, type TempSqlite } from "@herald/testkit";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, suiteAvailability, launch, screenshot } from "./support/browser";
import { serveStatic, type StaticServer } from "./support/static-server";
import { buildWrappers } from "./support/wrappers/build";
import { expectNoViolations } from "./support/axe";

const sdk = join(import.meta.dirname, "..", "..", "sdk");
const availability = suiteAvailability();

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });

describe.skipIf(!availability.run)("<herald-inbox> in a plain HTML page", () => {
  let store: TempSqlite;
  let server: SpawnedHerald;
  let files: StaticServer;
  let wrapperFiles: StaticServer;
  let wrapperDir: TempDir;
  let graphqlUrl: string;
  let personToken: string;
  let browser: Browser;
  let page: Page;
  let producer: HeraldClient;
  /** The person's own client, straight to Herald: what the server holds. */
  let person: HeraldClient;
  let personId: string;

  async function publish(input: Partial<PublishNotificationInput> & { key: string; title: string }): Promise<Notification> {
    const r = await producer.publish({ scope: "PERSON", personId, source: { plugin: "acme" }, ...input });
    if (!r.ok) throw new Error(r.message);
    return r.notification;
  }
  const drawer = () => page.getByTestId("drawer");
  const card = (id: string) => drawer().locator(`article[data-surface=drawer][data-notification-id="${id}"]`);

  beforeAll(async () => {
    expect(existsSync(join(sdk, "dist", "herald-inbox.js")), "npm run bundle in sdk/ emits dist/herald-inbox.js").toBe(true);
    store = createTempSqlite("herald-element-");
    const filesPort = await freePort();
    const wrapperPort = await freePort();
    const env = { DATABASE_URL: store.url, HERALD_CORS_ORIGINS: `http://127.0.0.1:${filesPort},http://127.0.0.1:${wrapperPort}` };
    // The React and Svelte applications, built by Vite as an application would build them.
    wrapperDir = createTempDir("herald-wrappers-");
    await buildWrappers(wrapperDir.path);
    wrapperFiles = await serveStatic(wrapperDir.path, wrapperPort);
    const herald = heraldCli(env);
    const ada = await herald.createPerson("Ada");
    personId = ada.id;
    const key = await herald.createProducerKey("acme");
    server = await spawnHerald({ env, startTimeoutMs: 180_000 });
    producer = createHeraldClient({ url: server.url, token: key });
    person = createHeraldClient({ url: server.url, token: ada.token });
    files = await serveStatic(sdk, filesPort);
    browser = await launch(files.url);
    page = browser.page;
    page.setDefaultTimeout(30_000);
    graphqlUrl = new URL("/graphql", server.url).href;
    personToken = ada.token;
    await page.goto(`/examples/inbox.html#server=${encodeURIComponent(graphqlUrl)}&token=${encodeURIComponent(personToken)}`);
  }, 300_000);
  afterAll(async () => {
    producer?.close();
    person?.close();
    await browser?.close();
    await files?.close();
    await wrapperFiles?.close();
    wrapperDir?.remove();
    await server?.stop();
    store?.remove();
  });

  it("counts a notification that arrives live, and opening it reads it", async () => {
    await page.getByTestId("herald-inbox").waitFor();
    await poll(() => page.getByTestId("badge").getAttribute("data-count")).toBe("0");
    const n = await publish({ key: "deploy", title: "Deploy finished", body: "Version **2.4** is live." });
    await poll(() => page.getByTestId("badge").getAttribute("data-count")).toBe("1");
    // Screen readers hear it through the one polite live region for new notifications.
    expect(await page.getByTestId("announcer").count()).toBe(1);
    await poll(() => page.getByTestId("announcer").textContent()).toContain("New notification: Deploy finished");
    await screenshot(page, "element-bell");
    // Themed from the page: the host's --herald-accent reaches the inside of the shadow root.
    const accent = await page
      .locator("herald-inbox")
      .evaluate((el) => getComputedStyle(el.shadowRoot!.querySelector(".herald-inbox")!).getPropertyValue("--accent").trim());
    expect(accent).toBe("#0b6e4f");
    await page.getByTestId("drawer-button").click();
    await card(n.id).waitFor();
    await poll(() => page.getByTestId("badge").getAttribute("data-count")).toBe("0");
    expect(await card(n.id).getAttribute("data-read")).toBe("false");
    await card(n.id).locator(".title").click();
    await poll(() => card(n.id).getAttribute("data-read")).toBe("true");
    await poll(async () => (await person.get(n.id))?.readAt ?? null).not.toBeNull();
    await screenshot(page, "element-open");
    await expectNoViolations(page);
  });

  it("dismisses with undo, by button and by Ctrl+Z, and sends the dismissal when the window closes", async () => {
    const n = await publish({ key: "report", title: "Nightly report" });
    const status = async () => (await person.get(n.id))?.status;
    await card(n.id).waitFor();
    const dismiss = () => card(n.id).getByRole("button", { name: "Dismiss “Nightly report”" });
    await dismiss().click();
    await card(n.id).waitFor({ state: "detached" });
    const notice = drawer().getByTestId("undo-notice");
    await notice.waitFor();
    await screenshot(page, "element-undo");
    await notice.getByTestId("undo").click();
    await card(n.id).waitFor();
    expect(await status()).not.toBe("DISMISSED");
    // The shortcut is heard although the focus is inside the shadow root.
    await dismiss().focus();
    await page.keyboard.press("Enter");
    await card(n.id).waitFor({ state: "detached" });
    await page.keyboard.press("Control+z");
    await card(n.id).waitFor();
    expect(await status()).not.toBe("DISMISSED");
    await dismiss().click();
    await card(n.id).waitFor({ state: "detached" });
    await poll(status).toBe("DISMISSED");
    await poll(() => drawer().getByTestId("undo-notice").count()).toBe(0);
  });

  it("runs a follow-up and sends a form to the producer, and shows the producer's answer", async () => {
    const retry = await publish({
      key: "build",
      title: "Build failed",
      severity: "ERROR",
      actions: [{ kind: "RUN_ACTION", id: "retry", label: "Retry", actionId: "build.retry" }],
    });
    const form = await publish({
      key: "release",
      title: "Approve the release",
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
    await card(retry.id).getByRole("button", { name: "Retry" }).click();
    await poll(() => card(retry.id).getByTestId("invocation-state").getAttribute("data-state")).toBe("PENDING");
    const invocationOf = async (id: string) => (await producer.actionInvocations({ plugin: "acme" })).items.find((i) => i.notificationId === id);
    await poll(async () => (await invocationOf(retry.id))?.notificationId ?? null).toBe(retry.id);

    const inForm = card(form.id).getByTestId("action-form");
    await inForm.locator("input[name=note]").fill("ship it");
    await inForm.getByRole("button", { name: "Approve" }).click();
    await poll(async () => (await invocationOf(form.id))?.fixedParams ?? null).toEqual({ note: "ship it" });
    await producer.acknowledgeActionInvocation((await invocationOf(form.id))!.id, "ACKNOWLEDGED", "Released");
    await poll(() => card(form.id).getByTestId("invocation-state").getAttribute("data-state")).toBe("ACKNOWLEDGED");
    expect(await inForm.locator("input[name=note]").isDisabled()).toBe(true);
    await screenshot(page, "element-form");
    await expectNoViolations(page);
  });

  it("lists the person's channels under the inbox", async () => {
    await person.addWebhookChannel({ url: "https://hooks.example.com/acme", label: "Acme hook" });
    // Read when the inbox first opened (before this channel existed): a new element reads again.
    await page.reload();
    await page.getByTestId("drawer-button").click();
    await drawer().getByTestId("inbox-channels").locator("summary").click();
    await poll(() => drawer().getByTestId("inbox-channel").allTextContents()).toEqual([expect.stringContaining("Acme hook")]);
    await screenshot(page, "element-channels");
  });

  for (const wrapper of ["react", "svelte"] as const) {
    it(`renders the same inbox inside the ${wrapper === "react" ? "React" : "Svelte"} wrapper, live`, async () => {
      await page.goto(`${wrapperFiles.url}/${wrapper}/index.html#server=${encodeURIComponent(graphqlUrl)}&token=${encodeURIComponent(personToken)}`);
      await page.locator("herald-inbox").getByTestId("badge").waitFor();
      const before = Number(await page.getByTestId("badge").getAttribute("data-count"));
      const n = await publish({ key: `wrapper:${wrapper}`, title: `Hello from ${wrapper}` });
      await poll(async () => Number(await page.getByTestId("badge").getAttribute("data-count"))).toBe(before + 1);
      await page.getByTestId("drawer-button").click();
      await card(n.id).waitFor();
      await screenshot(page, `element-${wrapper}`);
      await expectNoViolations(page);
      await page.keyboard.press("Escape");
    });
  }
});
