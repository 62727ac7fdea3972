// <herald-inbox>'s one module, with Svelte and every dependency, stays under its 60 kB gzipped goal
// (bench/history.md has each step). Bytes, not time: the same build gives the same figure on any
// machine. A feature that crosses the line pays for itself elsewhere or moves the design.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

const GOAL_BYTES = 60 * 1024;

describe("<herald-inbox> size", () => {
  it("dist/herald-inbox.js is under 60 kB gzipped (level 9), the size scripts/size.mjs prints", () => {
    const bundle = readFileSync(new URL("../dist/herald-inbox.js", import.meta.url));
    const gzipped = gzipSync(bundle, { level: 9 }).length;
    expect(gzipped, `${(gzipped / 1024).toFixed(1)} kB gzipped`).toBeLessThan(GOAL_BYTES);
    // The module is the whole element: no import of anything outside it.
    expect(bundle.toString("utf8")).not.toMatch(/\bimport\s*["'{*]|\bfrom\s*["'][^"']+["']/);
  });
});
