// `npm start` runs this instead of `npm run generate`: generation takes about 20 s, so it runs
// only when one of its inputs changed since the last run (a stamp of their hashes, kept under
// node_modules/.cache) or one of its outputs is missing; on a fresh clone, whose committed derived
// files match their committed inputs, it does not run. `npm run generate` always regenerates.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const root = join(import.meta.dirname, "..");
const stampPath = join(root, "node_modules", ".cache", "herald", "generate-stamp.json");

/** What generation reads: the models, its scripts, the code the GraphQL schema is printed from, the SDK's operations, the locked tool versions. */
const INPUTS = [
  "prisma/models.prisma",
  "scripts/generate.ts",
  "scripts/prisma-providers.ts",
  "codegen.ts",
  "package-lock.json",
  "server/src",
  "sdk/src/operations",
];
/** Generated but not committed (or committed): without them the stamp alone proves nothing. */
const OUTPUTS = [
  "server/src/storage/generated/database.ts",
  "server/src/storage/generated/columns.ts",
  "server/schema.graphql",
  "sdk/src/generated/graphql.ts",
];
/** Generation's own output inside an input folder. */
const SKIPPED = new Set(["server/src/storage/generated"]);

function filesUnder(path: string): string[] {
  const full = join(root, path);
  if (SKIPPED.has(path) || !existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).flatMap((name) => filesUnder(`${path}/${name}`));
}

function inputsHash(): string {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap(filesUnder).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function stamped(): string | null {
  try {
    return (JSON.parse(readFileSync(stampPath, "utf8")) as { inputs?: string }).inputs ?? null;
  } catch {
    return null;
  }
}

/**
 * A clean checkout: the derived files are committed and CI fails any commit whose derived files
 * differ from what its inputs generate, so inputs unchanged since the commit need no run.
 */
function inputsAsCommitted(): boolean {
  try {
    return (
      execFileSync("git", ["status", "--porcelain", "--", ...INPUTS, ...OUTPUTS], {
        cwd: root,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim() === ""
    );
  } catch {
    return false; // not a git checkout, or no git: generate
  }
}

const current = inputsHash();
const outputsPresent = OUTPUTS.every((path) => existsSync(join(root, path)));
if (outputsPresent && (stamped() === current || (stamped() === null && inputsAsCommitted()))) {
  mkdirSync(dirname(stampPath), { recursive: true });
  writeFileSync(stampPath, `${JSON.stringify({ inputs: current })}\n`);
  if (!process.argv.includes("--quiet")) console.log("Generated files are up to date (npm run generate forces a run).");
} else {
  execFileSync("node", ["--import", "tsx", "scripts/generate.ts"], { cwd: root, stdio: "inherit" });
  mkdirSync(dirname(stampPath), { recursive: true });
  writeFileSync(stampPath, `${JSON.stringify({ inputs: current })}\n`);
}
