// The dashboard end to end: Chromium (playwright-core) against the built dashboard and a real
// Herald server, with a producer publishing through the SDK. Screenshots of the main states go
// to app/test-artifacts/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionInvocation, Notification, PublishNotificationInput } from "@herald/sdk";
import type { Locator, Page, Response, Route } from "playwright-core";
import { type Browser, browserAvailability, launch, screenshot } from "./support/browser";
import { eventually, type Stack, startStack } from "./support/stack";

const availability = (() => {
  try {
    return { ...browserAvailability(), error: null };
  } catch (error) {
    return { run: false, reason: "", error: error as Error };
  }
})();

if (availability.error) {
  it("has Chromium to run the browser tests in (mandatory with CI=true)", () => {
    throw availability.error;
  });
} else if (!availability.run) {
  console.log(`[app] Skipping the dashboard's browser tests: ${availability.reason}.`);
}

describe.skipIf(!availability.run)("dashboard in Chromium", () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const requestedUrls: string[] = [];
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  const cspViolations: string[] = [];

  beforeAll(async () => {
    stack = await startStack();
    browser = await launch(stack.dashboardUrl);
    page = browser.page;
    page.setDefaultTimeout(10_000);
    page.on("request", (request) => requestedUrls.push(request.url()));
    page.on("framenavigated", (frame) => requestedUrls.push(frame.url()));
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.text().includes("Content Security Policy")) cspViolations.push(message.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function publish(input: Partial<PublishNotificationInput> & { key: string; title: string }): Promise<Notification> {
    const result = await stack.producer.publish({
      scope: "PERSON",
      ...(input.scope === undefined || input.scope === "PERSON" ? { personId: stack.person.id } : {}),
      source: { plugin: "e2e" },
      ...input,
    });
    if (!result.ok) throw new Error(result.message);
    return result.notification;
  }

  /**
   * Runs `action` and waits until the page has `count` new subscriptions registered with Herald.
   * The SDK's live view reads its snapshot while its subscription is still being set up, so an
   * event published in that window would be missed (see the report); tests that publish right
   * after a page (re)load or a new list wait for this first. In graphql-sse single-connection
   * mode an operation is registered when its POST to the stream endpoint is answered 202.
   */
  async function afterSubscriptions(count: number, action: () => Promise<unknown>): Promise<void> {
    let accepted = 0;
    let listener: ((response: Response) => void) | null = null;
    const registered = new Promise<void>((resolve) => {
      listener = (response) => {
        const request = response.request();
        if (request.method() === "POST" && new URL(response.url()).pathname === "/api/graphql/stream" && response.status() === 202 && ++accepted >= count)
          resolve();
      };
      page.on("response", listener);
    });
    try {
      await action();
      await Promise.race([
        registered,
        new Promise((_, reject) => setTimeout(() => reject(new Error(`${accepted} of ${count} subscriptions registered`)), 15_000)),
      ]);
    } finally {
      if (listener) page.off("response", listener);
    }
  }

  const badge = () => page.locator("[data-testid=badge]");
  const badgeCount = async () => Number(await badge().getAttribute("data-count"));
  const drawer = () => page.locator("dialog[data-testid=drawer]");
  const drawerCard = (key: string) => drawer().locator(`article[data-surface=drawer][data-key="${key}"]`);
  const banner = (key: string) => page.locator(`article[data-surface=banner][data-key="${key}"]`);

  async function openDrawer(): Promise<Locator> {
    if (!(await drawer().evaluate((d: HTMLDialogElement) => d.open))) await page.getByTestId("drawer-button").click();
    await drawer().locator("[data-testid=feed-list], .empty").first().waitFor();
    return drawer();
  }

  async function closeDrawer(): Promise<void> {
    if (await drawer().evaluate((d: HTMLDialogElement) => d.open)) await page.keyboard.press("Escape");
    await expect.poll(() => drawer().evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
  }

  async function showStatus(value: "all" | "unseen" | "snoozed" | "dismissed"): Promise<void> {
    await drawer().locator(`input[name=drawer-status][value=${value}]`).check();
  }

  it("shows the sign-in page to a signed-out visitor and refuses a wrong token with a message", async () => {
    await page.goto("/");
    await page.waitForURL("**/signin");
    await expect.poll(() => page.getByRole("heading", { name: "Sign in" }).isVisible()).toBe(true);
    await screenshot(page, "signed-out");

    await page.getByLabel("Person token").fill("herald_pt_wrong");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("did not accept this token");
    expect(await page.getByLabel("Person token").getAttribute("aria-invalid")).toBe("true");
  });

  it("signs in with a pasted token kept in an httpOnly SameSite=Lax cookie, never in a URL", async () => {
    await page.getByLabel("Person token").fill(stack.person.token);
    await afterSubscriptions(1, async () => {
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${stack.dashboardUrl}/`);
    });
    await page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
    await page.locator("[data-testid=connection][data-state=live]").waitFor();

    const cookie = (await browser.context.cookies()).find((c) => c.name === "herald_token");
    expect(cookie).toMatchObject({ value: stack.person.token, httpOnly: true, sameSite: "Lax", secure: false, path: "/" });
    expect(await page.evaluate(() => document.cookie)).not.toContain("herald_token");
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(stack.person.token);
    expect(requestedUrls.filter((url) => url.includes(stack.person.token))).toEqual([]);
    expect(await badgeCount()).toBe(0);

    // Nothing yet: a designed empty state, opened and closed from the keyboard.
    // (The drawer's list rides on the main view's stream: opening it subscribes to nothing new.)
    await page.getByTestId("drawer-button").focus();
    await page.keyboard.press("Enter");
    await drawer().getByText("No notifications", { exact: true }).waitFor();
    await screenshot(page, "drawer-empty");
    await closeDrawer();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("drawer-button");
  });

  // How soon a publish reaches a stream is bench:fanout's figure (latency against bare SSE), not a stopwatch here.
  it("updates the badge and the drawer live; opening the drawer marks what it shows seen", async () => {
    await publish({
      key: "build:42",
      title: "Build 42 failed on main",
      body: "The **integration** suite failed after 12 minutes. See the logs for `test/api.spec.ts`.",
      severity: "ERROR",
      // A personal notification is inline (the inbox only) unless its producer asks for a banner.
      display: { format: "MARKDOWN", presentation: "BANNER" },
      source: { plugin: "ci", subsystem: "github-actions" },
      actions: [
        { kind: "RUN_ACTION", id: "retry", label: "Retry", actionId: "ci.retry" },
        { kind: "OPEN_URL", id: "logs", label: "Open logs", url: "https://ci.example.com/builds/42" },
        { kind: "COPY_TEXT", id: "sha", label: "Copy commit", text: "3f2a9c1" },
      ],
    });
    await page.locator("[data-testid=badge][data-count='1']").waitFor();
    await expect.poll(() => page.getByTestId("announcer").textContent()).toContain("New notification: Build 42 failed on main");

    await publish({ key: "deploy:staging", title: "Deploying 2.4.0 to staging", body: "Started by Grace.", severity: "INFO", source: { plugin: "deployer" } });
    const csr = await stack.producer.uploadAsset(new TextEncoder().encode("-----BEGIN CERTIFICATE REQUEST-----\n"), "api.csr", "text/plain");
    await publish({
      key: "cert:expiry",
      title: "TLS certificate expires in 6 days",
      body: "api.example.com — renew before Friday.",
      severity: "WARNING",
      source: { plugin: "monitor", subsystem: "certificates" },
      actions: [{ kind: "DOWNLOAD_ATTACHMENT_ASSET", id: "csr", label: "Download CSR", assetId: csr.id }],
    });
    await page.locator("[data-testid=badge][data-count='3']").waitFor();
    await banner("build:42").waitFor();
    await screenshot(page, "badge-with-count");

    const panel = await openDrawer();
    await drawerCard("cert:expiry").waitFor();
    // Newest first.
    expect(await panel.locator("article[data-surface=drawer]").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-key")))).toEqual([
      "cert:expiry",
      "deploy:staging",
      "build:42",
    ]);
    // Focus moved into the drawer.
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("dialog[data-testid=drawer]")))).toBe(true);
    await page.locator("[data-testid=badge][data-count='0']").waitFor();
    expect((await stack.personClient.counts()).unseen).toBe(0);
    await screenshot(page, "drawer-open");

    // While it is open, a new one shows up in it.
    await publish({
      key: "review:17",
      title: "Grace asked for your review",
      body: "Pull request #17: tidy the retry policy.",
      severity: "SUCCESS",
      source: { plugin: "forge" },
    });
    await drawerCard("review:17").waitFor();
    await expect.poll(async () => (await stack.personClient.counts()).unseen).toBe(0);

    // Escape closes it and focus returns to the bell.
    await closeDrawer();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("drawer-button");
  });

  it("dismisses a notification; the server agrees and it moves to the Dismissed view", async () => {
    await openDrawer();
    const card = drawerCard("deploy:staging");
    const id = (await card.getAttribute("data-notification-id")) ?? "";
    await card.getByRole("button", { name: "Dismiss “Deploying 2.4.0 to staging”" }).click();
    await card.waitFor({ state: "detached", timeout: 3_000 });
    await expect.poll(() => page.getByTestId("notices").textContent()).toContain("Dismissed “Deploying 2.4.0 to staging”");
    // Sent when its undo window closes (its notice's close button closes it now).
    await page.getByTestId("undo-commit").click();
    await expect.poll(async () => (await stack.personClient.get(id))?.status).toBe("DISMISSED");

    await showStatus("dismissed");
    await drawerCard("deploy:staging").waitFor();
    await showStatus("all");
    await closeDrawer();
  });

  it("keeps a newer revision visible when a dismissal conflicts, and says so", async () => {
    // Deterministic conflict: the page's event-stream requests are held unanswered (page.route
    // never continues them), so after a reload the page knows revision 1 only from its snapshot.
    // The producer then publishes revision 2 of the same key; the Dismiss button sends
    // expectedRevision 1 and Herald answers RevisionConflictError with the current record.
    await publish({
      key: "disk:db-1",
      title: "Disk on db-1 is 92% full",
      body: "Clean up old backups soon.",
      severity: "WARNING",
      source: { plugin: "monitor" },
    });
    const held: Route[] = [];
    await page.route("**/api/graphql/stream**", (route) => void held.push(route));
    try {
      await page.reload();
      await openDrawer();
      const card = drawerCard("disk:db-1");
      await card.waitFor();
      expect(await card.getAttribute("data-revision")).toBe("1");

      const v2 = await publish({
        key: "disk:db-1",
        title: "Disk on db-1 is full",
        body: "Writes are failing. Free space now.",
        severity: "ERROR",
        source: { plugin: "monitor" },
      });
      expect(v2.revision).toBe(2);
      expect(await card.getAttribute("data-revision")).toBe("1"); // the page has not heard of it

      await card.getByRole("button", { name: "Dismiss “Disk on db-1 is 92% full”" }).click();
      await page.getByTestId("undo-commit").click();
      const message = card.getByTestId("conflict-message");
      await message.waitFor();
      expect(await message.textContent()).toContain("Not dismissed");
      expect(await card.getAttribute("data-revision")).toBe("2");
      expect(await card.locator(".title").textContent()).toBe("Disk on db-1 is full");
      await expect.poll(() => page.getByTestId("announcer").textContent()).toContain("Not dismissed");
      await screenshot(page, "dismiss-conflict");
      const stored = await stack.personClient.get(v2.id);
      expect(stored).toMatchObject({ revision: 2, status: expect.not.stringMatching("DISMISSED") });
    } finally {
      // Release the stream with a fresh page: held requests end with the old one.
      await page.unroute("**/api/graphql/stream**");
      await afterSubscriptions(1, () => page.reload());
      for (const route of held) await route.abort().catch(() => undefined);
    }

    // Dismissing the revision now shown works. (The drawer rides on the main view's stream, which
    // the reload above registered: opening it subscribes to nothing new.)
    await openDrawer();
    const card = drawerCard("disk:db-1");
    await card.waitFor();
    expect(await card.getAttribute("data-revision")).toBe("2");
    await card.getByRole("button", { name: "Dismiss “Disk on db-1 is full”" }).click();
    await card.waitFor({ state: "detached" });
    await page.getByTestId("undo-commit").click();
    await expect.poll(async () => (await stack.personClient.page({ filter: { statuses: ["DISMISSED"] } })).items.map((n) => n.key)).toContain("disk:db-1");
    await closeDrawer();
  });

  it("updates a progress notification in place, sends Cancel to its producer, and drops it when resolved", async () => {
    const invocations: ActionInvocation[] = [];
    const stop = stack.producer.onActionInvocation((invocation) => void invocations.push(invocation), { plugin: "exporter" });
    try {
      const operationId = "export-7";
      const progress = (phase: string, elapsedSeconds: number) =>
        publish({
          key: "export:data",
          title: "Exporting your data",
          body: `Phase: ${phase}`,
          source: { plugin: "exporter" },
          operation: { id: operationId, type: "export", state: "running", phase, elapsedSeconds, cancellable: true },
          actions: [{ kind: "RUN_ACTION", id: "cancel", label: "Cancel", actionId: "export.cancel", fixedParams: { operationId } }],
        });
      const first = await progress("collecting", 5);
      await openDrawer();
      const card = drawerCard("export:data");
      await card.locator(".phase", { hasText: "collecting" }).waitFor();
      expect(await card.textContent()).toContain("5 s elapsed");

      await progress("compressing", 65);
      await card.locator(".phase", { hasText: "compressing" }).waitFor({ timeout: 5_000 });
      expect(await card.textContent()).toContain("1 min 5 s elapsed");
      expect(await drawer().locator('[data-key="export:data"]').count()).toBe(1);
      expect(await card.getAttribute("data-notification-id")).toBe(first.id);
      expect(await card.getAttribute("data-revision")).toBe("2");
      await screenshot(page, "progress");

      // Cancelling asks first: "Keep it running" sends nothing, "Yes, cancel it" sends the Cancel.
      await card.getByRole("button", { name: "Cancel", exact: true }).click();
      await card.getByRole("button", { name: "Keep it running" }).click();
      await card.getByRole("button", { name: "Cancel", exact: true }).click();
      await card.getByRole("button", { name: "Yes, cancel it" }).click();
      await eventually(() => invocations.length > 0, 5_000, "the action invocation");
      expect(invocations).toHaveLength(1);
      expect(invocations[0]).toMatchObject({ notificationId: first.id, actionId: "cancel", targetActionId: "export.cancel", fixedParams: { operationId } });

      const resolved = await stack.producer.resolve(first.id, { actionId: "cancelled" }, operationId);
      expect(resolved.ok).toBe(true);
      await card.waitFor({ state: "detached", timeout: 5_000 });
      await closeDrawer();
    } finally {
      stop();
    }
  });

  it("submits a follow-up's form, shows the run pending, then done once the producer acknowledges it", async () => {
    // No producer listens: the invocation is stored and waits for one.
    const n = await publish({
      key: "deploy:form",
      title: "Ready to deploy",
      source: { plugin: "deployer" },
      actions: [
        {
          kind: "RUN_ACTION",
          id: "deploy",
          label: "Deploy",
          actionId: "deploy.run",
          fixedParams: { env: "$form.env", note: "$form.note" },
          form: [
            { name: "env", label: "Environment", type: "SELECT", required: true, options: ["staging", "production"] },
            { name: "note", label: "Note", type: "TEXT", maxLength: 40 },
          ],
        },
      ],
    });
    await openDrawer();
    const card = drawerCard("deploy:form");
    const form = card.getByTestId("action-form");
    await form.waitFor();
    await form.getByRole("button", { name: "Deploy" }).click();
    await form.getByTestId("form-error").waitFor();
    expect(await form.getByTestId("form-error").textContent()).toContain("Environment is required");
    expect(await card.getByTestId("invocation-state").count()).toBe(0);

    await form.locator("select[name=env]").selectOption("staging");
    await form.locator("input[name=note]").fill("after standup");
    await form.getByRole("button", { name: "Deploy" }).click();
    const state = card.getByTestId("invocation-state");
    await expect.poll(() => state.getAttribute("data-state")).toBe("PENDING");
    expect(await state.textContent()).toContain("waiting for deployer");

    const waiting = await stack.producer.actionInvocations({ plugin: "deployer" });
    expect(waiting.items).toHaveLength(1);
    expect(waiting.items[0]).toMatchObject({ notificationId: n.id, targetActionId: "deploy.run", fixedParams: { env: "staging", note: "after standup" } });
    await stack.producer.acknowledgeActionInvocation(waiting.items[0]!.id, "ACKNOWLEDGED", "Deployed to staging");
    await expect.poll(() => state.getAttribute("data-state"), { timeout: 5_000 }).toBe("ACKNOWLEDGED");
    expect(await state.textContent()).toContain("Deployed to staging");
    await screenshot(page, "invocation-acknowledged");
    await closeDrawer();
  });

  it("holds new notifications back from banners while quiet mode is on, counts them, and shows them when it is turned off", async () => {
    const before = await badgeCount();
    await page.getByTestId("quiet-toggle").click();
    await page.getByTestId("quiet-indicator").waitFor();
    expect(await page.getByTestId("quiet-toggle").getAttribute("aria-pressed")).toBe("true");
    await expect.poll(async () => (await stack.personClient.viewer()).quietMode).toBe(true);

    await publish({
      key: "quiet:digest",
      title: "Weekly digest is ready",
      body: "12 changes across 3 projects.",
      display: { presentation: "BANNER" },
      source: { plugin: "digest" },
    });
    // Listed and counted as the server lists it (docs/decisions.md, "Seen, read, dismissed"), but no banner.
    await expect.poll(() => badgeCount(), { timeout: 20_000 }).toBe(before + 1);
    expect(await banner("quiet:digest").count()).toBe(0);
    await screenshot(page, "quiet-mode");

    await page.getByTestId("quiet-indicator").getByRole("button", { name: "Turn off" }).click();
    await banner("quiet:digest").waitFor({ timeout: 5_000 });
    expect(await badgeCount()).toBe(before + 1);
    expect(await page.getByTestId("quiet-indicator").count()).toBe(0);
    expect((await stack.personClient.viewer()).quietMode).toBe(false);
  });

  it("opens a MODAL notification in a dialog; closing it marks it seen", async () => {
    const n = await publish({
      key: "deploy:approve",
      title: "Approve the production deploy?",
      body: "Release 2.4.0 passed staging. Approve to roll it out to all regions.",
      severity: "WARNING",
      display: { presentation: "MODAL" },
      source: { plugin: "deployer" },
      actions: [
        { kind: "RUN_ACTION", id: "approve", label: "Approve", actionId: "deploy.approve" },
        { kind: "OPEN_URL", id: "notes", label: "Release notes", url: "https://example.com/releases/2.4.0" },
      ],
    });
    const modal = page.locator("dialog[data-testid=modal]");
    await modal.getByRole("heading", { name: "Approve the production deploy?" }).waitFor({ timeout: 3_000 });
    expect(await modal.evaluate((d: HTMLDialogElement) => d.open && d.matches(":modal"))).toBe(true);
    const notes = modal.getByRole("link", { name: /Release notes/ });
    expect(await notes.getAttribute("rel")).toContain("noopener");
    await screenshot(page, "modal");

    await modal.getByRole("button", { name: "Close", exact: true }).click();
    await expect.poll(() => modal.evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
    await expect.poll(async () => (await stack.personClient.get(n.id))?.status).toBe("SEEN");
  });

  it("renders a Markdown body inert: no script or image element, the HTML shown as text, no dialog", async () => {
    const body = [
      "Hello **world**.",
      "",
      "<script>window.__xss = 'script'; alert('script')</script>",
      "",
      `<img src="x" onerror="window.__xss = 'img'; alert('img')">`,
      "",
      "[bad link](javascript:alert('link')) and [good link](https://example.com/docs)",
    ].join("\n");
    await publish({ key: "md:inert", title: "Markdown safety check", body, display: { format: "MARKDOWN" }, source: { plugin: "e2e" } });
    await openDrawer();
    const card = drawerCard("md:inert");
    const rendered = card.locator(".body");
    await rendered.waitFor();
    expect(await page.locator('[data-key="md:inert"] script, [data-key="md:inert"] img, [data-key="md:inert"] iframe').count()).toBe(0);
    expect(await rendered.locator("strong").textContent()).toBe("world");
    const text = (await rendered.textContent()) ?? "";
    expect(text).toContain("<script>window.__xss = 'script'; alert('script')</script>");
    expect(text).toContain(`<img src="x" onerror=`);
    expect(await rendered.locator('a[href^="javascript"]').count()).toBe(0);
    const good = rendered.locator('a[href="https://example.com/docs"]');
    expect(await good.getAttribute("rel")).toContain("noopener");
    // An image made from the body anywhere in the page would load "x" and fail: an image of ours
    // with that source fails after it (the same resource, asked for later), so its onerror would
    // have run by then. Inline script never runs from parsed HTML; a dialog would have shown.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const probe = new Image();
          probe.onload = probe.onerror = () => resolve();
          probe.src = "x";
        }),
    );
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await closeDrawer();
  });

  it("shows a session's INLINE notifications in its page, with the session label on the card", async () => {
    // A harness reports an exchange: the session gets its generated label in the background.
    const reported = await stack.producer.reportExchange({
      harness: "claude-code",
      sessionId: "sess-e2e-1",
      completionId: "msg-1",
      personId: stack.person.id,
      cwd: "/home/ada/src/shop",
      userText: "Migrate the checkout tests to vitest",
      assistantText: "Migrated all checkout tests.",
    });
    await eventually(async () => (await stack.producer.sessionMetadata("claude-code", "sess-e2e-1"))?.labelGeneration === "1");
    const label = (await stack.producer.sessionMetadata("claude-code", "sess-e2e-1"))!.label;
    expect(label).toBe("Migrate Checkout Tests Vitest");
    // Only the notification published below stays active in this session.
    await stack.producer.expire(reported.notification!.id);
    const session = reported.session;
    await publish({
      scope: "SESSION",
      sessionId: session.id,
      key: "tests:failed",
      title: "3 tests failed in this session",
      body: "`api.spec.ts` has 3 failures after the last edit.",
      display: { format: "MARKDOWN" },
      severity: "WARNING",
      source: { plugin: "test-runner" },
      actions: [{ kind: "RUN_ACTION", id: "rerun", label: "Run again", actionId: "tests.rerun" }],
    });
    await openDrawer();
    const link = drawerCard("tests:failed").locator("a.session");
    await link.waitFor();
    expect(await link.textContent()).toBe(`Session: ${label}`);
    // The scope filter narrows the drawer to session notifications.
    await drawer().getByLabel("Scope").selectOption("SESSION");
    await expect
      .poll(() =>
        drawer()
          .locator("article[data-surface=drawer]")
          .evaluateAll((cards) => cards.map((c) => c.getAttribute("data-key"))),
      )
      .toEqual(["tests:failed"]);
    await drawer().getByLabel("Scope").selectOption("");
    await drawerCard("build:42").waitFor();
    await link.click();
    await page.waitForURL(`**/sessions/${session.id}`);
    const inline = page.locator("[data-testid=inline-area] article[data-surface=inline][data-key='tests:failed']");
    await inline.waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain(label);
    await screenshot(page, "session-inline");
    await afterSubscriptions(1, () => page.goto("/"));
  });

  it("links a notification to its engagement, whose page and drawer filter show it", async () => {
    const engagement = await stack.producer.createEngagement({ name: "Acme onboarding", operatorPersonId: stack.person.id });
    await publish({ key: "acme:kickoff", title: "Kick-off notes are ready", engagementId: engagement.id, source: { plugin: "notes" } });
    await openDrawer();
    const card = drawerCard("acme:kickoff");
    await card.waitFor();
    await drawer().getByLabel("Engagement").selectOption(engagement.id);
    await expect.poll(() => drawer().locator("article[data-surface=drawer]").count()).toBe(1);
    await drawer().getByLabel("Engagement").selectOption("");
    await drawerCard("acme:kickoff").getByRole("link", { name: "Acme onboarding" }).click();
    await page.waitForURL(`**/engagements/${engagement.id}`);
    await page.getByRole("heading", { level: 1, name: "Acme onboarding" }).waitFor();
    await page.locator("article[data-surface=page][data-key='acme:kickoff']").waitFor();
    await afterSubscriptions(1, () => page.goto("/"));
  });

  it("names a session or engagement page that has no notifications, and answers 404 for one that is not the person's", async () => {
    const session = await stack.producer.createSession({ harness: "codex", sessionId: "quiet-session-1", ownerPersonId: stack.person.id });
    await page.goto(`/sessions/${session.id}`);
    await page.getByRole("heading", { level: 1, name: session.label || "codex quiet-session-1" }).waitFor();
    await page.getByText("codex · quiet-session-1").waitFor();
    await page.getByText("No notifications for this session").waitFor();
    expect(await page.title()).toBe(`${session.label || "codex quiet-session-1"} · Herald`);
    await screenshot(page, "session-empty");

    const engagement = await stack.producer.createEngagement({ name: "Quiet engagement", operatorPersonId: stack.person.id });
    await page.goto(`/engagements/${engagement.id}`);
    await page.getByRole("heading", { level: 1, name: "Quiet engagement" }).waitFor();
    await page.getByText("No active notifications for this engagement").waitFor();

    const bob = await stack.producer.createPerson("Bob");
    const bobs = await stack.producer.createSession({ harness: "codex", sessionId: "bobs-session", ownerPersonId: bob.id });
    for (const path of [`/sessions/${bobs.id}`, "/sessions/no-such-session", "/engagements/no-such-engagement"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await page.getByRole("heading", { level: 1, name: /^No such (session|engagement)$/ }).waitFor();
      expect(await page.content()).not.toContain("bobs-session");
    }
    await afterSubscriptions(1, () => page.goto("/"));
  });

  it("keeps a non-dismissible banner without a Dismiss button but with a way forward", async () => {
    await publish({
      scope: "APPLICATION",
      key: "maintenance:tonight",
      title: "Maintenance tonight, 22:00–23:00",
      body: "Herald will be read-only for up to an hour.",
      display: { dismissible: false },
      // Its TTL is what keeps it from being a dead end: it has no follow-up of its own.
      retention: { policy: "TTL", expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
      source: { plugin: "ops" },
    });
    const card = banner("maintenance:tonight");
    await card.waitFor();
    expect(await card.getByRole("button", { name: /^Dismiss/ }).count()).toBe(0);
    await card.getByRole("button", { name: "Details" }).click();
    await expect.poll(() => drawer().evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    await closeDrawer();
  });

  it("snoozes for an hour or until a picked time, lists it under Snoozed, and unsnoozes", async () => {
    const n = await publish({ key: "report:q3", title: "Review the Q3 report", body: "Finance asked for comments by Monday.", source: { plugin: "docs" } });
    await openDrawer();
    const card = drawerCard("report:q3");
    await card.locator("summary", { hasText: "Snooze" }).click();
    await card.getByRole("button", { name: "For 1 hour" }).click();
    await card.waitFor({ state: "detached" });
    const snoozed = await stack.personClient.get(n.id);
    const inAnHour = Date.parse(snoozed?.snoozedUntil ?? "") - Date.now();
    expect(inAnHour).toBeGreaterThan(3_500_000);
    expect(inAnHour).toBeLessThan(3_700_000);

    await showStatus("snoozed");
    const snoozedCard = drawerCard("report:q3");
    await snoozedCard.waitFor();
    expect(await snoozedCard.textContent()).toContain("Snoozed until");
    await screenshot(page, "snoozed-view");

    // Pick a time: the datetime-local value is the browser's local time.
    await snoozedCard.getByRole("button", { name: "Unsnooze" }).click();
    await snoozedCard.waitFor({ state: "detached" });
    await showStatus("all");
    await drawerCard("report:q3").locator("summary", { hasText: "Snooze" }).click();
    const picked = await page.evaluate(() => {
      const d = new Date(Date.now() + 2 * 86_400_000);
      d.setHours(14, 30, 0, 0);
      const pad = (v: number) => String(v).padStart(2, "0");
      return { value: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T14:30`, iso: d.toISOString() };
    });
    await drawerCard("report:q3").locator("input[type=datetime-local]").fill(picked.value);
    await drawerCard("report:q3").getByRole("button", { name: "Snooze", exact: true }).click();
    await drawerCard("report:q3").waitFor({ state: "detached" });
    await expect.poll(async () => (await stack.personClient.get(n.id))?.snoozedUntil).toBe(picked.iso);
    await closeDrawer();
  });

  it("shows the connection state: offline when the network drops, live again after", async () => {
    await page.locator("[data-testid=connection][data-state=live]").waitFor();
    await browser.context.setOffline(true);
    await page.locator("[data-testid=connection][data-state=offline]").waitFor();
    await browser.context.setOffline(false);
    await page.locator("[data-testid=connection][data-state=live]").waitFor({ timeout: 20_000 });
  });

  it("loads older pages while scrolling the drawer (beyond the 50 records the live view keeps)", async () => {
    for (let i = 1; i <= 60; i++) await publish({ key: `bulk:${i}`, title: `Nightly job ${i} finished`, severity: "SUCCESS", source: { plugin: "scheduler" } });
    const panel = await openDrawer();
    await drawerCard("bulk:60").waitFor();
    const list = panel.locator(".list");
    const oldest = drawerCard("build:42");
    await eventually(
      async () => {
        await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        return (await oldest.count()) > 0;
      },
      15_000,
      "the oldest record to load while scrolling",
      250,
    );
    await panel.getByText("That is everything.").waitFor();
    const keys = await panel.locator("article[data-surface=drawer]").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-key")));
    expect(new Set(keys).size).toBe(keys.length); // no duplicates at the seam
    for (let i = 1; i <= 60; i++) expect(keys).toContain(`bulk:${i}`);
    const total = (await stack.personClient.counts()).total;
    expect(keys.length).toBe(total);
    await closeDrawer();
  });

  it("fits a phone-sized screen", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await afterSubscriptions(1, () => page.goto("/"));
    await page.locator("[data-testid=connection][data-state=live]").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, "phone");
    await openDrawer();
    expect((await drawer().boundingBox())?.width).toBeLessThanOrEqual(390.5);
    await screenshot(page, "phone-drawer");
    await closeDrawer();
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it("signs out, and signs in once with a one-time link that then stops working", async () => {
    await page.getByRole("button", { name: /^Sign out/ }).click();
    await page.waitForURL("**/signin");
    expect((await browser.context.cookies()).some((c) => c.name === "herald_token")).toBe(false);

    const code = await stack.newSignInCode();
    await page.goto(`/signin/${code}`);
    // Opening the link signs no one in: the confirm page's button does.
    await page.getByRole("heading", { name: "Sign in to Herald" }).waitFor();
    expect((await browser.context.cookies()).some((c) => c.name === "herald_token")).toBe(false);
    await screenshot(page, "signin-confirm");
    await page.getByRole("button", { name: "Continue to the dashboard" }).click();
    await page.waitForURL(`${stack.dashboardUrl}/`);
    await page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
    expect(page.url()).not.toContain(code);

    await page.getByRole("button", { name: /^Sign out/ }).click();
    await page.waitForURL("**/signin");
    await page.goto(`/signin/${code}`);
    await page.getByRole("button", { name: "Continue to the dashboard" }).click();
    await page.getByRole("heading", { name: "This sign-in link did not work" }).waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("not valid any more");
  });

  it("tells the person when their token stops working, and sends them to sign in again", async () => {
    const code = await stack.newSignInCode();
    await page.goto(`/signin/${code}`);
    await afterSubscriptions(1, () => page.getByRole("button", { name: "Continue to the dashboard" }).click());
    await page.getByRole("heading", { name: "Hello, Ada" }).waitFor();
    const token = (await browser.context.cookies()).find((c) => c.name === "herald_token")?.value ?? "";
    expect(token).toMatch(/^herald_pt_/);
    expect(await stack.cli("revoke", token.slice(0, 16))).toContain("revoked 1");

    await page.getByTestId("quiet-toggle").click();
    await page.getByRole("alert").filter({ hasText: "Your sign-in is no longer valid" }).waitFor();
    await page.getByRole("button", { name: "Sign in again" }).click();
    await page.waitForURL("**/signin");
    // The dead token does not linger in the browser.
    expect((await browser.context.cookies()).some((c) => c.name === "herald_token")).toBe(false);
  });

  it("says what is wrong when Herald goes away: reconnecting live, then a designed error page", async () => {
    // A fresh sign-in: signing out earlier revoked the token the first test pasted.
    const code = await stack.newSignInCode();
    await page.goto(`/signin/${code}`);
    await afterSubscriptions(1, () => page.getByRole("button", { name: "Continue to the dashboard" }).click());
    await page.locator("[data-testid=connection][data-state=live]").waitFor();
    await stack.stopHerald();
    await page.locator("[data-testid=connection][data-state=reconnecting], [data-testid=connection][data-state=offline]").first().waitFor();
    await screenshot(page, "herald-down-reconnecting");
    await page.reload();
    await page.getByRole("heading", { name: /Herald could not be reached/ }).waitFor();
    await screenshot(page, "herald-unreachable");
  });

  it("raised no uncaught errors and no Content-Security-Policy violations in the page", () => {
    expect(pageErrors).toEqual([]);
    expect(cspViolations).toEqual([]);
    expect(requestedUrls.filter((url) => url.includes(stack.person.token))).toEqual([]);
  });
});
