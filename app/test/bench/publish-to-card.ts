// Time from publish to the card on screen in the dashboard (Chromium, the drawer open), p50/p99
// over N notifications published one after another, beside the same publishes reaching a live
// view of the SDK in this process (the server's own fan-out, the baseline of the same run).
// Run: node --import tsx app/test/bench/publish-to-card.ts [N=200]   (app/build must be built)
import { launch } from "../support/browser";
import { startStack } from "../support/stack";

const N = Number(process.argv[2] ?? 200);
const stack = await startStack();
const browser = await launch(stack.dashboardUrl);
const page = browser.page;
try {
  await page.goto(`/signin/${await stack.newSignInCode()}`);
  await page.getByRole("button", { name: "Continue to the dashboard" }).click();
  await page.locator("[data-testid=connection][data-state=live]").waitFor();
  await page.getByTestId("drawer-button").click();
  await page.locator("dialog[data-testid=drawer] .empty, dialog[data-testid=drawer] [data-testid=feed-list]").first().waitFor();
  // The page notes when each card first appears (wall clock: the page and this process share it).
  await page.evaluate(() => {
    const seen: Record<string, number> = {};
    (window as unknown as { __cards: Record<string, number> }).__cards = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll<HTMLElement>("dialog article[data-surface=drawer][data-key^='bench:']")) seen[el.dataset.key!] ??= Date.now();
    }).observe(document.body, { subtree: true, childList: true });
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
  console.log(`publish -> shown, ${N} notifications, ms\n| where | p50 | p99 |\n| --- | --- | --- |\n${row("SDK live view in the producer's process (baseline)", toEvent)}\n${row("dashboard card on screen (drawer open)", toCard)}`);
  console.log(`ratio card/baseline: p50 ${(pct(toCard, 50) / pct(toEvent, 50)).toFixed(2)}, p99 ${(pct(toCard, 99) / pct(toEvent, 99)).toFixed(2)}`);
} finally {
  await browser.close();
  await stack.close();
}
