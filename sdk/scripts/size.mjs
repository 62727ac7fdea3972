// Prints the gzipped size of <herald-inbox> with its dependencies (the goal is under 60 kB) and
// copies it to dist/inbox-element.js, the module behind @herald/sdk/inbox-element.
import { copyFileSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const file = new URL("../dist/herald-inbox.js", import.meta.url);
const bytes = readFileSync(file);
const gzipped = gzipSync(bytes, { level: 9 }).length;
copyFileSync(file, new URL("../dist/inbox-element.js", import.meta.url));
console.log(`herald-inbox.js: ${(bytes.length / 1024).toFixed(1)} kB, ${(gzipped / 1024).toFixed(1)} kB gzipped (goal < 60 kB)`);
