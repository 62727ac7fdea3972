// Three tabs of one browser signed in as one person, with every kind of stream the dashboard
// opens (main view, each tab's drawer, a session page's list, quiet mode), hold one event stream
// and one preferences stream on the server between them: the tab holding the Web Locks holds
// them, the others get what it passes on over BroadcastChannels. A quiet-mode change and a new
// notification reach every tab, and when the leading tab closes another takes over without
// losing an event. The server's count (the /metrics gauge herald_open_streams) is the measure;
// for comparison, the same three tabs in a browser without Web Locks hold a stream per view.
// In Chromium against a real Herald and the built dashboard.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, suiteAvailability, launch } from "./support/browser";
import { type Stack, startStack } from "./support/stack";

const availability = suiteAvailability();

/** The shared browser's streams: one notificationEvents and one preferencesEvents. */
const SHARED_STREAMS = 2;

describe.skipIf(!availability.run)("every stream of one person shared across the tabs of one origin", () => {
  let stack: Stack;
  let browser: Browser;
  let sessionId: string;
  /** Tab 1 leads (it started first), tab 2 shows the session page, tab 3 the overview; all with the drawer open. */
  let tabs: Page[] = [];
  /** Stream subscriptions each page registered (single-connection mode POSTs each one). */
  const subscriptions = new Map<Page, number>();

  const countSubscriptions = (page: Page) => {
    subscriptions.set(page, 0);
    page.on("request", (request) => {
      if (request.method() !== "POST" || new URL(request.url()).pathname !== "/api/graphql/stream") return;
      if (/notificationEvents|preferencesEvents/.test(request.postData() ?? "")) subscriptions.set(page, (subscriptions.get(page) ?? 0) + 1);
    });
  };
  const drawerCard = (page: Page, key: string) => page.locator(`dialog[data-testid=drawer] article[data-surface=drawer][data-key="${key}"]`);
  /** A card of the session page's own list (its inline region or the list below). */
  const onSessionPage = (page: Page, key: string) =>
    page.locator(`article[data-surface=inline][data-key="${key}"], article[data-surface=page][data-key="${key}"]`).first();
  const openDrawer = async (page: Page) => {
    await page.getByTestId("drawer-button").click();
    await page.locator("dialog[data-testid=drawer]").locator("[data-testid=feed-list], .empty").first().waitFor();
  };
  const publish = async (key: string, fields: { sessionId?: string } = {}) => {
    const addressee = fields.sessionId ? { scope: "SESSION" as const, sessionId: fields.sessionId } : { scope: "PERSON" as const, personId: stack.person.id };
    const result = await stack.producer.publish({ ...addressee, source: { plugin: "e2e" }, key, title: `Shared ${key}` });
    if (!result.ok) throw new Error(result.message);
    return result.notification;
  };

  /** Opens the three tabs in `target`: the overview, the session page, the overview; each with its drawer open. */
  async function openTabs(target: Browser): Promise<Page[]> {
    const first = target.page;
    first.setDefaultTimeout(15_000);
    await first.goto(`/signin/${await stack.newSignInCode()}`);
    await first.getByRole("button", { name: "Continue to the dashboard" }).click();
    await first.getByRole("heading", { name: "Hello, Ada" }).waitFor();
    const opened = [first];
    for (const path of [`/sessions/${sessionId}`, "/"]) {
      const page = await target.context.newPage();
      page.setDefaultTimeout(15_000);
      countSubscriptions(page);
      await page.goto(path);
      opened.push(page);
    }
    await opened[1]!.getByRole("heading", { level: 1 }).waitFor();
    await opened[2]!.getByRole("heading", { name: "Hello, Ada" }).waitFor();
    for (const page of opened) {
      await page.locator("[data-testid=connection][data-state=live]").waitFor();
      await openDrawer(page);
    }
    return opened;
  }

  beforeAll(async () => {
    stack = await startStack();
    sessionId = (await stack.producer.createSession({ harness: "codex", sessionId: "tabs-1", ownerPersonId: stack.person.id })).id;
    browser = await launch(stack.dashboardUrl);
    countSubscriptions(browser.page);
    tabs = await openTabs(browser);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("holds one event stream and one preferences stream for three tabs with drawers, a session page and quiet mode", async () => {
    await expect.poll(() => stack.openStreams(), { timeout: 10_000 }).toBe(SHARED_STREAMS);
    // Markers instead of a wait: a view holding a stream of its own shows what comes next only
    // through that stream, so once every view shows a new record and every tab a quiet-mode
    // change, each such stream has been asked for (and would be counted below).
    const marker = await publish("streams-marker", { sessionId });
    for (const tab of tabs) await drawerCard(tab, "streams-marker").waitFor({ timeout: 10_000 });
    await onSessionPage(tabs[1]!, "streams-marker").waitFor({ timeout: 10_000 });
    for (const tab of [tabs[0]!, tabs[2]!])
      await tab.locator(`[data-testid=latest-row][data-notification-id="${marker.id}"]`).waitFor({ state: "attached", timeout: 10_000 });
    await stack.personClient.setQuietMode(true);
    for (const tab of tabs) await tab.getByTestId("quiet-indicator").waitFor({ timeout: 10_000 });
    await stack.personClient.setQuietMode(false);
    for (const tab of tabs) await expect.poll(() => tab.getByTestId("quiet-indicator").count(), { timeout: 10_000 }).toBe(0);
    expect(await stack.openStreams()).toBe(SHARED_STREAMS);
    expect(subscriptions.get(tabs[0]!)).toBeGreaterThanOrEqual(SHARED_STREAMS);
    expect(tabs.slice(1).map((tab) => subscriptions.get(tab))).toEqual([0, 0]);
  });

  it("shows quiet mode turned on through the API in every tab", async () => {
    await stack.personClient.setQuietMode(true);
    for (const tab of tabs) await tab.getByTestId("quiet-indicator").waitFor({ timeout: 10_000 });
    await stack.personClient.setQuietMode(false);
    for (const tab of tabs) await expect.poll(() => tab.getByTestId("quiet-indicator").count(), { timeout: 10_000 }).toBe(0);
  });

  it("shows a new notification in every tab's drawer, and a session's on its page", async () => {
    await publish("everywhere-1");
    await publish("in-session-1", { sessionId });
    for (const tab of tabs) {
      await drawerCard(tab, "everywhere-1").waitFor({ timeout: 10_000 });
      await drawerCard(tab, "in-session-1").waitFor({ timeout: 10_000 });
    }
    await onSessionPage(tabs[1]!, "in-session-1").waitFor({ timeout: 10_000 });
    expect(await stack.openStreams()).toBe(SHARED_STREAMS);
  });

  it("hands the streams over when the leading tab closes, and no event is lost", async () => {
    const [leader, ...rest] = tabs;
    await leader!.close();
    // Published while the remaining tabs may hold no stream: the new leader resumes after the last cursor it saw.
    await publish("handover-1");
    await publish("in-session-2", { sessionId });
    await expect.poll(() => rest.reduce((sum, tab) => sum + (subscriptions.get(tab) ?? 0), 0), { timeout: 10_000 }).toBeGreaterThanOrEqual(SHARED_STREAMS);
    await publish("handover-2");
    for (const tab of rest) {
      for (const key of ["handover-1", "in-session-2", "handover-2"]) await drawerCard(tab, key).waitFor({ timeout: 10_000 });
    }
    await onSessionPage(rest[0]!, "in-session-2").waitFor({ timeout: 10_000 });
    await expect.poll(() => stack.openStreams(), { timeout: 10_000 }).toBe(SHARED_STREAMS);
    tabs = rest;
  });

  it("for comparison: the same three tabs without Web Locks hold a stream per view", async () => {
    const unshared = await launch(stack.dashboardUrl);
    try {
      // The SDK's fallback: where the browser lacks Web Locks each view keeps its own stream.
      await unshared.context.addInitScript(() => Object.defineProperty(Navigator.prototype, "locks", { get: () => undefined }));
      await openTabs(unshared);
      // Per tab the main view, its drawer and quiet mode, and the session page's list.
      const perView = 3 * 3 + 1;
      await expect.poll(() => stack.openStreams(), { timeout: 15_000 }).toBe(SHARED_STREAMS + perView);
      console.log(`open streams for three tabs: ${SHARED_STREAMS} shared, ${perView} without sharing`);
    } finally {
      await unshared.close();
    }
    await expect.poll(() => stack.openStreams(), { timeout: 10_000 }).toBe(SHARED_STREAMS);
  });
});
