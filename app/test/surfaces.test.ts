// In Chromium against a real Herald: SESSION banners and modals show on their session's page
// only, a TTL banner already shown stays past its deadline (a reload drops it), and notification ui effects reload what this dashboard decided (docs/decisions.md, "UI
// effects in the dashboard") exactly once per revision, with two live views open.
import type { Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, suiteAvailability, launch, screenshot } from "./support/browser";
import { type Stack, startStack } from "./support/stack";

const availability = suiteAvailability();

describe.skipIf(!availability.run)("notification surfaces and ui effects in the dashboard", () => {
  let stack: Stack;
  let browser: Browser;
  let sessionId: string;
  /** Server-data requests of the dashboard (what `invalidate` causes), in order, and those answered. */
  const dataRequests: Request[] = [];
  const answered = new Set<Request>();

  beforeAll(async () => {
    stack = await startStack();
    sessionId = (await stack.producer.createSession({ harness: "pi", sessionId: "surfaces", ownerPersonId: stack.person.id })).id;
    browser = await launch(stack.dashboardUrl);
    // Generous: under load a navigation alone has taken over 10 s.
    browser.page.setDefaultTimeout(30_000);
    browser.page.on("request", (request) => {
      if (request.url().includes("__data.json")) dataRequests.push(request);
    });
    browser.page.on("requestfinished", (request) => answered.add(request));
    browser.page.on("requestfailed", (request) => answered.add(request));
    await browser.page.goto(`/signin/${await stack.newSignInCode()}`);
    await browser.page.getByRole("button", { name: "Continue to the dashboard" }).click();
    await browser.page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const publish = async (input: Record<string, unknown>) => {
    const r = await stack.producer.publish({ source: { plugin: "surfaces" }, title: "t", ...input } as never);
    if (!r.ok) throw new Error(r.message);
    return r.notification;
  };
  const banner = (id: string) => browser.page.locator(`article[data-surface=banner][data-notification-id="${id}"]`);
  const modal = () => browser.page.locator("dialog[data-testid=modal]");
  const modalOpen = () => modal().evaluate((d: HTMLDialogElement) => d.open);

  /**
   * The data requests after `from`, "nothing more" shown by a marker: once `count` of them are
   * answered (an effect run again would be held back behind its first reload until then), a plain
   * record `marker` is published and shown. The live views observe events in order and run an
   * effect as they observe its record, so every reload the records before the marker cause has
   * been asked for by the time the page shows it.
   */
  async function dataRequestsUntilMarker(from: number, count: number, marker: Record<string, unknown>): Promise<string[]> {
    await expect.poll(() => dataRequests.slice(from).filter((request) => answered.has(request)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(count);
    const shown = await publish({ title: "Marker", ...marker });
    await browser.page.locator(`[data-notification-id="${shown.id}"]`).first().waitFor({ state: "attached" });
    return dataRequests.slice(from).map((request) => request.url());
  }

  it("shows a SESSION banner and modal on their session's page only; PERSON banners everywhere", async () => {
    const page = browser.page;
    const personal = await publish({
      scope: "PERSON",
      personId: stack.person.id,
      key: "everywhere",
      title: "For every page",
      display: { presentation: "BANNER" },
    });
    const sessionBanner = await publish({ scope: "SESSION", sessionId, key: "session-banner", title: "Session banner", display: { presentation: "BANNER" } });
    await banner(personal.id).waitFor();
    // The session banner was published first: one ordered stream feeds every view, so it was
    // observed before the personal one that shows. It is not on the overview.
    expect(await banner(sessionBanner.id).count()).toBe(0);

    const sessionModal = await publish({ scope: "SESSION", sessionId, key: "session-modal", title: "Session question", display: { presentation: "MODAL" } });
    await expect.poll(async () => (await page.getByTestId("badge").getAttribute("data-count")) ?? "0", { timeout: 15_000 }).toBe("3");
    expect(await modalOpen()).toBe(false);
    await screenshot(page, "surfaces-overview");

    await page.goto(`/sessions/${sessionId}`);
    await banner(sessionBanner.id).waitFor();
    await banner(personal.id).waitFor();
    await expect.poll(modalOpen, { timeout: 15_000 }).toBe(true);
    expect(await modal().locator(`article[data-notification-id="${sessionModal.id}"]`).count()).toBe(1);
    await screenshot(page, "surfaces-session-page");
    await modal().getByRole("button", { name: "Close", exact: true }).click();
    await expect.poll(modalOpen, { timeout: 15_000 }).toBe(false);

    await page.goto("/");
    await banner(personal.id).waitFor();
    expect(await banner(sessionBanner.id).count()).toBe(0);
  });

  it("reloads the application data once for reload_application_actions with the drawer's live view open too", async () => {
    const page = browser.page;
    await page.getByTestId("drawer-button").click();
    await page.locator("dialog[data-testid=drawer]").locator("[data-testid=feed-list], .empty").first().waitFor();
    const from = dataRequests.length;
    await publish({ scope: "PERSON", personId: stack.person.id, key: "effects-app", uiEffects: { reload_application_actions: true } });
    const requests = await dataRequestsUntilMarker(from, 1, { scope: "PERSON", personId: stack.person.id, key: "effects-app-marker" });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toContain("x-sveltekit-invalidated");
    await page.keyboard.press("Escape");
  });

  it("reloads an open session page once for reload_session_ids naming it, not for another session", async () => {
    const page = browser.page;
    await page.goto(`/sessions/${sessionId}`);
    await page.locator("[data-testid=feed-list], .empty").first().waitFor();
    let from = dataRequests.length;
    await publish({ scope: "SESSION", sessionId, key: "effects-other", uiEffects: { reload_session_ids: ["some-other-session"] } });
    expect(await dataRequestsUntilMarker(from, 0, { scope: "SESSION", sessionId, key: "effects-other-marker" })).toEqual([]);

    from = dataRequests.length;
    await publish({ scope: "SESSION", sessionId, key: "effects-session", uiEffects: { reload_session_ids: [sessionId] } });
    const requests = await dataRequestsUntilMarker(from, 1, { scope: "SESSION", sessionId, key: "effects-session-marker" });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toContain(`/sessions/${sessionId}/__data.json`);
  });

  // Last in this file: the clock it installs stays with the browser context.
  it("keeps a TTL banner on screen past its deadline, through the clock's ticks, until the page reloads", async () => {
    const page = browser.page;
    // The page's time is the test's to move (it flows on by itself meanwhile); the page loads again
    // so that the dashboard's timers, its 15 s clock tick among them, run on it.
    await page.clock.install();
    await page.goto("/");
    await page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
    // Far enough ahead that a busy machine still publishes it before the deadline.
    const deadline = Date.now() + 12_000;
    const n = await publish({
      scope: "PERSON",
      personId: stack.person.id,
      key: "ttl-banner",
      title: "Window open",
      display: { presentation: "BANNER" },
      retention: { policy: "TTL", expiresAt: new Date(deadline).toISOString() },
    });
    await banner(n.id).waitFor();
    // Past the deadline and past the dashboard's 15 s clock tick, which re-judges every list.
    await page.clock.runFor(deadline - Date.now() + 16_000);
    expect(await banner(n.id).count()).toBe(1);
    await page.reload();
    await page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
    // The server's clock has not reached the deadline, so the new snapshot carries the record and
    // leaving it out is the dashboard's own judgement. A banner published now shows after that
    // snapshot: the TTL banner would have shown with it.
    const marker = await publish({
      scope: "PERSON",
      personId: stack.person.id,
      key: "ttl-marker",
      title: "After the reload",
      display: { presentation: "BANNER" },
    });
    await banner(marker.id).waitFor();
    expect(await banner(n.id).count()).toBe(0);
  }, 120_000);
});
