// The dashboard's service worker in Chromium, against a real Herald and the built dashboard: it
// registers on its own; a Web Push message delivered through the DevTools protocol
// (ServiceWorker.deliverPushMessage; a real push service needs the internet) shows a system
// notification with its title, severity, body, tag, data and at most two buttons
// (registration.getNotifications()); a newer revision with the same tag replaces it; the click
// logic the worker's notificationclick listener runs (called in the worker: headless Chromium
// cannot click a system notification) opens the notification in the dashboard tab and POSTs an
// action button's URL without the dashboard's cookie. End to end: the payload Herald really sends
// (taken from a webhook channel, whose `data` is the Web Push plaintext) shown by the worker, its
// button answered through Herald's own action URL once, and refused the second time.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { CDPSession, Page, Worker } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, browserAvailability, launch, screenshot } from "./support/browser";
import { type Stack, startStack } from "./support/stack";

const availability = browserAvailability();

interface Shown {
  title: string;
  body: string;
  tag: string;
  requireInteraction: boolean;
  actions: { action: string; title: string }[];
  data: { notificationId: string | null; revision: number | null; url: string; actions: Record<string, { label: string; url: string }> };
}

/** A stand-in for Herald's action endpoint: records each POST and answers with the next status. */
interface ActionReceiver {
  url: string;
  posts: { path: string; cookie: string | undefined; origin: string | undefined; body: string }[];
  statuses: number[];
  next(): Promise<void>;
  close(): Promise<void>;
}

async function startActionReceiver(allowOrigin: string): Promise<ActionReceiver> {
  const waiting: (() => void)[] = [];
  const receiver: Omit<ActionReceiver, "url" | "close"> & { server?: Server } = {
    posts: [],
    statuses: [],
    next: () => new Promise<void>((resolve) => waiting.push(resolve)),
  };
  const server = createServer((request: IncomingMessage, response) => {
    response.setHeader("access-control-allow-origin", allowOrigin);
    if (request.method === "OPTIONS") {
      response.setHeader("access-control-allow-methods", "POST");
      response.setHeader("access-control-allow-headers", "content-type");
      response.end();
      return;
    }
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      receiver.posts.push({ path: request.url ?? "", cookie: request.headers.cookie, origin: request.headers.origin, body });
      response.statusCode = receiver.statuses.shift() ?? 200;
      response.end();
      waiting.shift()?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    ...receiver,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!availability.run)("the dashboard's service worker (Web Push)", () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  let worker: Worker;
  let registrationId = "";
  let receiver: ActionReceiver;

  /** Delivers one push message and resolves once the worker's showNotification() has resolved. */
  async function push(payload: object): Promise<void> {
    // Armed in the worker before the push: the next showNotification() resolving settles it.
    await worker.evaluate(() => {
      const scope = self as unknown as { registration: ServiceWorkerRegistration; shown?: Promise<string> };
      const registration = scope.registration;
      const original = ServiceWorkerRegistration.prototype.showNotification;
      scope.shown = new Promise<string>((resolve) => {
        registration.showNotification = async (title: string, options?: NotificationOptions) => {
          await original.call(registration, title, options);
          registration.showNotification = original;
          resolve(options?.tag ?? "");
        };
      });
    });
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: stack.dashboardUrl, registrationId, data: JSON.stringify(payload) });
    await worker.evaluate(() => (self as unknown as { shown: Promise<string> }).shown);
  }

  function shown(): Promise<Shown[]> {
    return page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        requireInteraction: n.requireInteraction,
        actions: (n as Notification & { actions: { action: string; title: string }[] }).actions.map((a) => ({ action: a.action, title: a.title })),
        data: n.data as Shown["data"],
      }));
    });
  }

  /** Runs the worker's click logic on the notification with this tag, as its listener would. */
  function click(tag: string, action: string): Promise<string> {
    return worker.evaluate(
      async ({ tag, action }) => {
        const scope = self as unknown as { registration: ServiceWorkerRegistration; heraldRespondToClick(n: Notification, a: string): Promise<string> };
        const [notification] = await scope.registration.getNotifications({ tag });
        if (!notification) throw new Error(`no notification tagged ${tag}`);
        notification.close();
        return scope.heraldRespondToClick(notification, action);
      },
      { tag, action },
    );
  }

  beforeAll(async () => {
    // Webhooks to the test's own receiver on 127.0.0.1 (plain http) carry Herald's real payloads.
    stack = await startStack({ env: { HERALD_CHANNEL_ALLOW_HOSTS: "127.0.0.1" } });
    receiver = await startActionReceiver(stack.dashboardUrl);
    browser = await launch(stack.dashboardUrl);
    page = browser.page;
    page.setDefaultTimeout(30_000);
    await browser.context.grantPermissions(["notifications"], { origin: stack.dashboardUrl });
    cdp = await browser.context.newCDPSession(page);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await stack?.close();
  });

  it("registers its service worker on the dashboard's pages, for the whole origin", async () => {
    const registered = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const live = registrations.find((r) => !r.isDeleted && r.scopeURL === `${stack.dashboardUrl}/`);
        if (live) resolve(live.registrationId);
      });
    });
    const workerStarted = browser.context.waitForEvent("serviceworker");
    await cdp.send("ServiceWorker.enable");
    await page.goto(`/signin/${await stack.newSignInCode()}`);
    await page.getByRole("button", { name: "Continue to the dashboard" }).click();
    await page.getByRole("heading", { name: "Hello, Ada" }).waitFor();

    const active = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return { scope: registration.scope, script: registration.active?.scriptURL ?? "" };
    });
    expect(active).toEqual({ scope: `${stack.dashboardUrl}/`, script: `${stack.dashboardUrl}/service-worker.js` });
    registrationId = await registered;
    worker = browser.context.serviceWorkers()[0] ?? (await workerStarted);
    expect(worker.url()).toBe(`${stack.dashboardUrl}/service-worker.js`);
    // Permission comes from the test here; the dashboard asks for it only on a click in Settings.
    expect(await page.evaluate(() => Notification.permission)).toBe("granted");
    expect(await page.evaluate(() => (Notification as unknown as { maxActions: number }).maxActions)).toBe(2);
  });

  it("shows a push with title, severity, body and two buttons, and a newer revision replaces it", async () => {
    const published = await stack.producer.publish({
      scope: "PERSON",
      personId: stack.person.id,
      key: "push:deploy",
      title: "Deploy to production?",
      severity: "WARNING",
      source: { plugin: "push" },
    });
    if (!published.ok) throw new Error(published.message);
    const id = published.notification.id;
    const dashboardLink = `${stack.dashboardUrl}/?notification=${id}`;
    const action = (name: string) => ({
      id: name,
      label: name === "yes" ? "Deploy" : name === "no" ? "Cancel" : "Later",
      url: `${receiver.url}/actions/token-${name}`,
    });

    await push({
      type: "notification.created",
      notificationId: id,
      revision: 1,
      title: "Deploy to production?",
      body: "Build 1042 passed.",
      severity: "WARNING",
      scope: "PERSON",
      url: dashboardLink,
      actions: [action("yes"), action("no"), action("later")],
    });
    const first = await shown();
    expect(first).toEqual([
      {
        title: "Deploy to production?",
        body: "Warning · Build 1042 passed.",
        tag: `herald:${id}`,
        requireInteraction: true,
        actions: [
          { action: "yes", title: "Deploy" },
          { action: "no", title: "Cancel" },
        ],
        data: {
          notificationId: id,
          revision: 1,
          url: dashboardLink,
          actions: { yes: { label: "Deploy", url: action("yes").url }, no: { label: "Cancel", url: action("no").url } },
        },
      },
    ]);

    await push({
      type: "notification.updated",
      notificationId: id,
      revision: 2,
      title: "Deploy to production? (2 approvals)",
      body: "Build 1043 passed.",
      severity: "ERROR",
      scope: "PERSON",
      url: dashboardLink,
      actions: [action("yes")],
    });
    const second = await shown();
    expect(second).toHaveLength(1);
    expect(second[0]).toMatchObject({
      title: "Deploy to production? (2 approvals)",
      body: "Error · Build 1043 passed.",
      tag: `herald:${id}`,
      actions: [{ action: "yes", title: "Deploy" }],
    });
    expect(second[0]!.data.revision).toBe(2);

    // Another notification stacks beside it (its own tag); a payload link to another site is not followed.
    await push({
      type: "notification.created",
      notificationId: "other-id",
      revision: 1,
      title: "Weekly digest",
      body: "",
      severity: "INFO",
      scope: "PERSON",
      url: "https://elsewhere.example/x",
      actions: [],
    });
    const both = await shown();
    expect(both.map((n) => n.tag).sort()).toEqual([`herald:${id}`, "herald:other-id"]);
    expect(both.find((n) => n.tag === "herald:other-id")).toMatchObject({
      body: "Info",
      requireInteraction: false,
      actions: [],
      data: { url: `${stack.dashboardUrl}/` },
    });
  });

  it("opens a clicked notification in the dashboard tab's inbox", async () => {
    const published = await stack.producer.publish({
      scope: "PERSON",
      personId: stack.person.id,
      key: "push:open",
      title: "Agent finished",
      source: { plugin: "push" },
    });
    if (!published.ok) throw new Error(published.message);
    const id = published.notification.id;
    await push({
      type: "notification.created",
      notificationId: id,
      revision: 1,
      title: "Agent finished",
      body: "All tests pass.",
      severity: "SUCCESS",
      scope: "PERSON",
      url: `${stack.dashboardUrl}/?notification=${id}`,
      actions: [],
    });
    expect(await click(`herald:${id}`, "")).toBe("focused");
    const card = page.locator(`dialog#drawer article[data-notification-id="${id}"]`);
    await expect.poll(() => card.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Escape");
  });

  it("opens the notification's link in a new dashboard page: ?notification=<id> opens the inbox on it", async () => {
    const published = await stack.producer.publish({
      scope: "PERSON",
      personId: stack.person.id,
      key: "push:link",
      title: "Linked from a phone",
      source: { plugin: "push" },
    });
    if (!published.ok) throw new Error(published.message);
    const id = published.notification.id;
    await page.goto(`/settings?notification=${id}`);
    const card = page.locator(`dialog#drawer article[data-notification-id="${id}"]`);
    await expect.poll(() => card.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Escape");
  });

  it("POSTs an action button's URL without the dashboard's cookie, and says so when it was refused", async () => {
    const id = "action-target";
    const url = `${receiver.url}/actions/token-approve`;
    const payload = {
      type: "notification.created",
      notificationId: id,
      revision: 3,
      title: "Approve the release?",
      body: "",
      severity: "WARNING",
      scope: "PERSON",
      url: `${stack.dashboardUrl}/?notification=${id}`,
      actions: [{ id: "approve", label: "Approve", url }],
    };

    await push(payload);
    receiver.statuses.push(204);
    const posted = receiver.next();
    expect(await click(`herald:${id}`, "approve")).toBe("answered");
    await posted;
    expect(receiver.posts.at(-1)).toEqual({ path: "/actions/token-approve", cookie: undefined, origin: stack.dashboardUrl, body: "{}" });

    // The same button again (as from a second copy): Herald answers 410, and the person sees why.
    await push(payload);
    receiver.statuses.push(410);
    expect(await click(`herald:${id}`, "approve")).toBe("refused");
    const after = (await shown()).filter((n) => n.tag === `herald:${id}`);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      title: "Not done: “Approve” on “Approve the release?”",
      actions: [],
      data: { url: `${stack.dashboardUrl}/?notification=${id}` },
    });
    expect(after[0]!.body).toContain("already answered");
    await screenshot(page, "push-dashboard");
  });

  it("answers with Herald's real action URL: the payload a channel receives, shown by the worker, its button POSTed once", async () => {
    await stack.personClient.addWebhookChannel({ url: `${receiver.url}/hook`, label: "payload tap" });
    const delivered = receiver.next();
    const published = await stack.producer.publish({
      scope: "PERSON",
      personId: stack.person.id,
      key: "push:e2e",
      title: "Run the migration?",
      severity: "WARNING",
      source: { plugin: "push" },
      actions: [{ kind: "RUN_ACTION", id: "run", label: "Run it", actionId: "db.migrate" }],
    });
    if (!published.ok) throw new Error(published.message);
    await delivered;
    const hook = receiver.posts.find((p) => p.path === "/hook")!;
    const payload = (JSON.parse(hook.body) as { data: { notificationId: string; url: string; actions: { id: string; url: string }[] } }).data;
    expect(payload.notificationId).toBe(published.notification.id);
    expect(payload.url).toBe(`${stack.dashboardUrl}/?notification=${published.notification.id}`);
    expect(payload.actions.map((a) => a.id)).toEqual(["run"]);

    await push(payload);
    const tag = `herald:${published.notification.id}`;
    expect((await shown()).find((n) => n.tag === tag)?.actions).toEqual([{ action: "run", title: "Run it" }]);
    expect(await click(tag, "run")).toBe("answered");
    // Single use: the same button again is refused by Herald, and the page's person is told.
    await push(payload);
    expect(await click(tag, "run")).toBe("refused");
  });
});
