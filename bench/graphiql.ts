// GraphiQL's first impression (bench/history.md, "GraphiQL"): the bytes a browser fetches for the
// page, and the time from navigation until GraphiQL is interactive (its query editor is mounted
// and the Execute button shows), in headless Chromium against `herald serve` on a fresh SQLite
// store: cold (an empty browser cache) and warm (a reload answered 304). Beside it, in the same
// run, a bare page from the same server (the health probe), to show what any page load costs here.
// `--runs N` (default 7).
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { createSqliteDatabase } from "./databases.ts";
import { startHerald } from "./herald-process.ts";
import { killAllChildren } from "./processes.ts";

const { values: args } = parseArgs({ options: { runs: { type: "string", default: "7" } } });
const runs = Number(args.runs);

const db = await createSqliteDatabase();
// GraphiQL is on by default outside production; the bench runs herald as production does.
const herald = await startHerald(db.url, { HERALD_GRAPHIQL: "true" });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const graphiql = new URL("/graphql", herald.url).toString();
const health = new URL("/health", herald.url).toString();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cold: number[] = [];
const warm: number[] = [];
const bare: number[] = [];
let transferred = 0;
try {
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    let started = performance.now();
    await page.goto(health);
    bare.push(performance.now() - started);

    started = performance.now();
    const response = await page.goto(graphiql, { waitUntil: "commit" });
    await page.locator('button[aria-label^="Execute query"]').waitFor({ state: "visible" });
    await page.locator(".graphiql-query-editor .monaco-editor").first().waitFor({ state: "attached" });
    cold.push(performance.now() - started);
    transferred = (await response!.request().sizes()).responseBodySize;

    started = performance.now();
    await page.reload({ waitUntil: "commit" });
    await page.locator('button[aria-label^="Execute query"]').waitFor({ state: "visible" });
    await page.locator(".graphiql-query-editor .monaco-editor").first().waitFor({ state: "attached" });
    warm.push(performance.now() - started);
    await context.close();
  }
  const ms = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
  console.log(`GraphiQL page over the wire: ${(transferred / 2 ** 20).toFixed(2)} MiB`);
  console.log(`bare page (/health):            ${ms(bare)}`);
  console.log(`GraphiQL interactive, cold:     ${ms(cold)}; ${(median(cold) / median(bare)).toFixed(1)}x the bare page`);
  console.log(`GraphiQL interactive, warm 304: ${ms(warm)}; ${(median(warm) / median(bare)).toFixed(1)}x the bare page`);
} finally {
  await browser.close();
  await herald.stop();
  await db.drop();
  killAllChildren();
}
process.exit(0);
