// The suites' one accessibility check: axe's WCAG 2.1 A/AA and best-practice rules. Every
// violation fails, of any impact (moderate ones included: a landmark missing or doubled).
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/**
 * Waits until every finite animation on the page (the drawer's slide-in, a toast's entrance) has
 * finished. Axe measures colours as painted: a panel caught at 60 % opacity fails colour
 * contrast, which on a busy machine made these checks fail at random. Endless animations (a
 * skeleton's shimmer, the connecting dot's pulse) are left running.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });
}

/** The page's address without its fragment, which may carry a person token (the element's example page). */
function pageName(page: Page): string {
  const url = new URL(page.url());
  url.hash = "";
  return url.href;
}

/** Every violation, one line each naming the rule, its impact, the node and the help text. */
export async function axeViolations(page: Page): Promise<string[]> {
  await animationsSettled(page);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${JSON.stringify(n.target)} - ${v.help}`));
}

/** Asserts that axe finds nothing; the failure's first line names the findings (a CI summary prints only that line). */
export async function expectNoViolations(page: Page): Promise<void> {
  const found = await axeViolations(page);
  expect(found, `axe on ${pageName(page)}: ${found.join("; ")}`).toEqual([]);
}
