// The suites' one accessibility check: axe's WCAG 2.1 A/AA and best-practice rules, failing on
// serious and critical violations and printing the moderate and minor ones.
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

/** Serious and critical violations, one line each naming the rule, the node and the help text. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await animationsSettled(page);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  const lines = (impacts: string[]) =>
    results.violations
      .filter((v) => impacts.includes(v.impact ?? ""))
      .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${JSON.stringify(n.target)} - ${v.help}`));
  const lesser = lines(["moderate", "minor"]);
  if (lesser.length) console.log(`axe, ${page.url()}:\n  ${lesser.join("\n  ")}`);
  return lines(["serious", "critical"]);
}

/**
 * Asserts that the page has no serious or critical violation; the failure's first line names
 * them (a CI summary prints only that line).
 */
export async function expectNoSeriousViolations(page: Page): Promise<void> {
  const found = await seriousViolations(page);
  expect(found, `axe on ${page.url()}: ${found.join("; ")}`).toEqual([]);
}
