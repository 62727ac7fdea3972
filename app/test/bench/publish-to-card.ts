// Time from publish to the card on screen in the dashboard or in <herald-inbox> (Chromium, the
// drawer open), p50/p99 over N notifications published one after another, beside the same
// publishes reaching a live view of the SDK in this process (the server's own fan-out, the
// baseline of the same run).
// Run: node --import tsx app/test/bench/publish-to-card.ts [N=200] [dashboard|element]
// (the dashboard needs app/build; the element, sdk/dist/herald-inbox.js: npm run build)
import { join } from "node:path";
import { freePort } from "@herald/testkit";
import { launch } from "../support/browser";
import { startStack } from "../support/stack";
import { serveStatic } from "../support/static-server";

const N = Number(process.argv[2] ?? 200);
const where = process.argv[3] === "element" ? "element" : "dashboard";
const filesPort = await freePort();
const stack = await startStack({ env: { HERALD_CORS_ORIGINS: `http://127.0.0.1:${filesPort}` } });
// The element's page: sdk/examples/inbox.html, as files, talking to Herald directly.
const files = where === "element" ? await serveStatic(join(import.meta.dirname, "..", "..", "..", "sdk"), filesPort) : null;
const browser = await launch(files ? files.url : stack.dashboardUrl);
const page = browser.page;
try {
  if (files) {
    await page.goto(
      `/examples/inbox.html#server=${encodeURIComponent(new URL("/graphql", stack.heraldUrl).href)}&token=${encodeURIComponent(stack.person.token)}`,
    );
    await page.getByTestId("badge").waitFor();
  } else {
    await page.goto(`/signin/${await stack.newSignInCode()}`);
    await page.getByRole("button", { name: "Continue to the dashboard" }).click();
    await page.locator("[data-testid=connection][data-state=live]").waitFor();
  }
  await page.getByTestId("drawer-button").click();
  await page.locator("dialog[data-testid=drawer] .empty, dialog[data-testid=drawer] [data-testid=feed-list]").first().waitFor();
  // The page notes when each card first appears (wall clock: the page and this process share it);
  // in the element, inside its (open) shadow root.
  await page.evaluate(() => {
    const seen: Record<string, number> = {};
    (window as unknown as { __cards: Record<string, number> }).__cards = seen;
    const root: Document | ShadowRoot = document.querySelector("herald-inbox")?.shadowRoot ?? document;
    new MutationObserver(() => {
      for (const el of root.querySelectorAll<HTMLElement>("dialog article[data-surface=drawer][data-key^='bench:']")) seen[el.dataset.key!] ??= Date.now();
    }).observe(root instanceof Document ? root.body : root, { subtree: true, childList: true });
  });
  const live = stack.personClient.live({}, { maxItems: 50 });
  const arrived = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  live.subscribe((state) => {
    for (const n of state.items) {
      if (!n.key.startsWith("bench:") || arrived.has(n.key)) continue;
      arrived.set(n.key, Date.now());
      waiters.get(n.key)?.();
    }
  });
  const toEvent: number[] = [];
  const toCard: number[] = [];
  for (let i = 0; i < N; i++) {
    const key = `bench:${i}`;
    const got = new Promise<void>((resolve) => waiters.set(key, resolve));
    const start = Date.now();
    const r = await stack.producer.publish({ scope: "PERSON", personId: stack.person.id, key, title: `Bench ${i}`, source: { plugin: "bench" } });
    if (!r.ok) throw new Error(r.message);
    await got;
    await page.waitForFunction((k) => (window as unknown as { __cards: Record<string, number> }).__cards[k] !== undefined, key, { polling: 10 });
    const shown = await page.evaluate((k) => (window as unknown as { __cards: Record<string, number> }).__cards[k]!, key);
    toEvent.push(arrived.get(key)! - start);
    toCard.push(shown - start);
  }
  live.close();
  const pct = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.ceil((p / 100) * list.length) - 1)]!;
  const row = (name: string, list: number[]) => `| ${name} | ${pct(list, 50)} | ${pct(list, 99)} |`;
  console.log(
    `publish -> shown, ${N} notifications, ms\n| where | p50 | p99 |\n| --- | --- | --- |\n${row("SDK live view in the producer's process (baseline)", toEvent)}\n${row(`${where === "element" ? "<herald-inbox>" : "dashboard"} card on screen (drawer open)`, toCard)}`,
  );
  console.log(`ratio card/baseline: p50 ${(pct(toCard, 50) / pct(toEvent, 50)).toFixed(2)}, p99 ${(pct(toCard, 99) / pct(toEvent, 99)).toFixed(2)}`);
} finally {
  await browser.close();
  await files?.close();
  await stack.close();
}
