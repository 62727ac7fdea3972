// The UI-strings catalogue stays the one place for user-facing text (no browser needed).
//
// What the scan checks, per .svelte file under app/src, after dropping <script>, <style>,
// HTML comments and every {…} expression:
// - no text node with a letter in it (words must come from `t`; punctuation such as " / " may stay);
// - no literal letters in the value of an attribute or prop that people read or hear:
//   aria-label, title, placeholder, alt, and the components' text props (label, emptyTitle,
//   regionLabel).
// It does not read strings inside <script> (the catalogue's unused-key check and review cover
// those) and it does not judge producer data shown through expressions.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { en } from "@herald/sdk/ui/i18n/en.ts";
import { t as all } from "@herald/sdk/ui/i18n/pages.ts";

// The inbox's components and the catalogue live in the SDK (sdk/src/ui); the app adds its own pages.
const SRC = join(import.meta.dirname, "..", "src");
const SDK_UI = join(import.meta.dirname, "..", "..", "sdk", "src", "ui");
const ROOTS = [SRC, SDK_UI];
const CATALOGUE_DIR = join(SDK_UI, "i18n");
const TEXT_ATTRIBUTES = ["aria-label", "title", "placeholder", "alt", "label", "emptyTitle", "regionLabel"];

function filesUnder(dir: string, suffixes: string[]): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path, suffixes));
    else if (suffixes.some((s) => entry.name.endsWith(s))) out.push(path);
  }
  return out;
}

/** Removes balanced {…} expressions (template literals' ${…} nest inside and go with them). */
function withoutExpressions(markup: string): string {
  let depth = 0;
  let out = "";
  for (const char of markup) {
    if (char === "{") depth++;
    else if (char === "}") depth = Math.max(0, depth - 1);
    else if (depth === 0) out += char;
  }
  return out;
}

/** The literal user-facing texts of one component's markup. */
function literalTexts(source: string): string[] {
  const markup = withoutExpressions(
    source
      .replace(/<script[\s\S]*?<\/script>/g, "")
      .replace(/<style[\s\S]*?<\/style>/g, "")
      .replace(/<!--[\s\S]*?-->/g, ""),
  );
  const found: string[] = [];
  const attribute = new RegExp(`(?<![\\w-])(${TEXT_ATTRIBUTES.join("|")})="([^"]*)"`, "g");
  for (const match of markup.matchAll(attribute)) if (/\p{L}/u.test(match[2]!)) found.push(`${match[1]}="${match[2]}"`);
  const text = markup.replace(/<[^>]*>/g, "\n").replace(/&[a-z]+;|&#\d+;/gi, " ");
  for (const line of text.split("\n")) if (/\p{L}/u.test(line)) found.push(line.trim());
  return found;
}

/** Dotted paths of the catalogue's messages (strings and message functions). */
function leafPaths(value: object, prefix = ""): string[] {
  return Object.entries(value).flatMap(([key, child]) =>
    typeof child === "object" && child !== null ? leafPaths(child as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

/** The components' and modules' source under `roots`, the catalogue itself left out. */
function sourceUnder(roots: string[]): string {
  return roots
    .flatMap((root) => filesUnder(root, [".svelte", ".ts"]))
    .filter((file) => !file.startsWith(CATALOGUE_DIR))
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A message is used when the source reads it by its full path (`t.bulk.clear`), or reads one of
 * its parents as a whole (`t.variant[s]`, `token: t.errors.token`): anything but `.` after it.
 */
function isUsed(path: string, corpus: string): boolean {
  const parts = path.split(".");
  return parts.some((_, i) => new RegExp(`\\bt\\.${escape(parts.slice(0, i + 1).join("."))}(?![\\w$.])`).test(corpus));
}

describe("UI strings catalogue", () => {
  it("the scan finds literal text nodes and text attributes, and passes catalogue reads", () => {
    expect(literalTexts(`<p class="x">Hello</p>`)).toEqual(["Hello"]);
    expect(literalTexts(`<button aria-label="Close message" onclick={() => a > b}></button>`)).toEqual(['aria-label="Close message"']);
    expect(literalTexts(`<input placeholder="ci, deploy" />`)).toEqual(['placeholder="ci, deploy"']);
    expect(literalTexts(`<Area label="Inline notifications" />`)).toEqual(['label="Inline notifications"']);
    expect(literalTexts(`<span aria-label="Snooze “{title}” until"></span>`)).toEqual(['aria-label="Snooze “” until"']);
    expect(literalTexts(`<p>{t.feed.end}</p> / <a title={t.card.source} data-title="x">{n.title}</a>`)).toEqual([]);
    expect(literalTexts(`<script lang="ts">const a = "Words";</script><style>.a { color: red; }</style><!-- a comment -->`)).toEqual([]);
  });

  it("no .svelte file under app/src or sdk/src/ui has literal user-facing text", () => {
    const files = ROOTS.flatMap((root) => filesUnder(root, [".svelte"]));
    expect(files.some((file) => file.startsWith(SDK_UI))).toBe(true);
    const offenders = files.flatMap((file) => literalTexts(readFileSync(file, "utf8")).map((text) => `${relative(join(SRC, "..", ".."), file)}: ${text}`));
    expect(offenders).toEqual([]);
  });

  it("every message in the catalogue is used somewhere in app/src or sdk/src/ui", () => {
    const corpus = sourceUnder(ROOTS);
    const paths = leafPaths(all);
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.filter((path) => !isUsed(path, corpus))).toEqual([]);
    // The check itself sees an unused message.
    expect(isUsed("bulk.nowhere", corpus)).toBe(false);
  });

  it("the inbox's catalogue holds only what the SDK's own UI reads, since <herald-inbox> ships all of it", () => {
    const corpus = sourceUnder([SDK_UI]);
    const paths = leafPaths(en);
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.filter((path) => !isUsed(path, corpus))).toEqual([]);
  });

  it("messages with counts choose their plural form through the language's rules", () => {
    expect(en.bulk.cleared(1)).toBe("Cleared 1 read notification.");
    expect(en.bulk.cleared(3)).toBe("Cleared 3 read notifications.");
    expect(all.banners.more(1)).toBe("1 more banner in notifications");
    expect(all.banners.more(2)).toBe("2 more banners in notifications");
    expect(all.overview.sessionsWith(1)).toBe("session with notifications");
    expect(all.overview.sessionsWith(0)).toBe("sessions with notifications");
    expect(en.announce(1, "Build")).toBe("New notification: Build");
    expect(en.announce(2, "Build")).toBe("2 new notifications, the newest: Build");
  });
});
