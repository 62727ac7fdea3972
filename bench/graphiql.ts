// GraphiQL's first impression (bench/history.md, "GraphiQL"): the bytes a browser fetches for the
// page, and the time from navigation until GraphiQL is interactive (its query editor is mounted
// and the Execute button shows; Monaco or CodeMirror, whichever the page uses), in headless Chromium against `herald serve` on a fresh SQLite
// store: cold (an empty browser cache) and warm (a reload: the page revalidated, immutable assets from the cache). Beside it, in the same
// run, a bare page from the same server (the health probe), to show what any page load costs here.
// `--runs N` (default 7).
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { createSqliteDatabase } from "./databases.ts";
import { startHerald } from "./herald-process.ts";
import { killAllChildren } from "./processes.ts";

const { values: args } = parseArgs({ options: { runs: { type: "string", default: "7" } } });
const runs = Number(args.runs);
console.log(
  `load average at the start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`,
);

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
// Whichever editor the page carries (GraphiQL 5: Monaco; GraphiQL 4: CodeMirror 5).
const queryEditor = ".graphiql-query-editor .monaco-editor, .graphiql-query-editor .CodeMirror";
try {
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    let started = performance.now();
    await page.goto(health);
    bare.push(performance.now() - started);

    // Every response of the cold load counts (the page and the assets it loads).
    const sizes: Promise<number>[] = [];
    const onFinished = (request: import("playwright-core").Request) => void sizes.push(request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize));
    page.on("requestfinished", onFinished);
    started = performance.now();
    await page.goto(graphiql, { waitUntil: "commit" });
    await page.locator('button[aria-label^="Execute query"]').waitFor({ state: "visible" });
    await page.locator(queryEditor).first().waitFor({ state: "attached" });
    cold.push(performance.now() - started);
    await page.waitForLoadState("load");
    page.off("requestfinished", onFinished);
    transferred = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);

    started = performance.now();
    await page.reload({ waitUntil: "commit" });
    await page.locator('button[aria-label^="Execute query"]').waitFor({ state: "visible" });
    await page.locator(queryEditor).first().waitFor({ state: "attached" });
    warm.push(performance.now() - started);
    await context.close();
  }
  const ms = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")}`,
  );
  console.log(`GraphiQL cold load over the wire (page and assets): ${(transferred / 2 ** 20).toFixed(2)} MiB`);
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
