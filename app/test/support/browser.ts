// Debian's Chromium driven by playwright-core (Playwright cannot download a browser here).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Locator, type Page } from "playwright-core";

export const CHROMIUM = process.env.HERALD_CHROMIUM ?? "/usr/bin/chromium";
export const SCREENSHOTS = join(import.meta.dirname, "..", "..", "test-artifacts", "screenshots");

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Whether the browser tests can run. With CI=true they are mandatory: a missing browser is a
 * failure with a clear message; elsewhere they are skipped with a printed reason.
 */
export function browserAvailability(): { run: boolean; reason: string } {
  if (existsSync(CHROMIUM)) return { run: true, reason: "" };
  const reason = `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) or set HERALD_CHROMIUM`;
  if (process.env.CI === "true" || process.env.CI === "1") throw new Error(`The dashboard's browser tests are mandatory in CI, but ${reason}.`);
  return { run: false, reason };
}

/**
 * The same for every other suite: skipped when Chromium is missing, never throwing (the dashboard
 * suite is the one that fails CI for it, once).
 */
export function suiteAvailability(): { run: boolean; reason: string } {
  try {
    return browserAvailability();
  } catch {
    return { run: false, reason: "Chromium is missing (dashboard.test.ts reports it)" };
  }
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** A fresh profile (user-data-dir) each time. */
export async function launch(baseURL: string): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "herald-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    baseURL,
    viewport: { width: 1280, height: 860 },
    locale: "en-GB",
    timezoneId: "Europe/Berlin",
    permissions: ["clipboard-read", "clipboard-write"],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * The colour an element's `--tone` resolves to, and the palette's colour of `variant`: equal when
 * the variant's tone (app/src/lib/tones.css) reaches the element.
 */
export function toneOf(element: Locator, variant: "info" | "success" | "warning" | "error"): Promise<{ tone: string; palette: string }> {
  return element.evaluate((el, v) => {
    const tone = getComputedStyle(el).getPropertyValue("--tone").trim();
    const palette = getComputedStyle(document.documentElement).getPropertyValue(`--${v}`).trim();
    return { tone, palette };
  }, variant);
}

export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage, animations: "disabled" });
}
