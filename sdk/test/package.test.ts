// The published package as a user gets it: `npm pack`, installed from the tarball into a scratch
// project outside the repository (its dependencies from the registry), type-checked and imported
// from plain Node (ESM), then used to publish and list against a real server.
import { execFile } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { createTempDir, type TempDir } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "./support/server.ts";

const run = promisify(execFile);
const sdk = join(import.meta.dirname, "..");
const tsc = join(sdk, "..", "node_modules", "typescript", "bin", "tsc");

/**
 * Packs a copy of the package (same package.json, files and build), so the test never rebuilds
 * the `dist/` that the dashboard and other suites read while it runs.
 */
async function packTarball(dir: string): Promise<string> {
  const stage = join(dir, "stage");
  for (const entry of ["package.json", "README.md", "CHANGELOG.md", "LICENSE", "src"]) cpSync(join(sdk, entry), join(stage, entry), { recursive: true });
  await run(process.execPath, [tsc, "-p", join(sdk, "tsconfig.build.json"), "--outDir", join(stage, "dist")], { cwd: sdk });
  const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], { cwd: stage });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  return join(dir, packed!.filename);
}

describe("the packed SDK", () => {
  let server: TestServer;
  let scratch: TempDir;

  beforeAll(async () => {
    scratch = createTempDir("herald-sdk-pack-");
    server = await startServer();
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    scratch?.remove();
  });

  it("installs from its tarball, type-checks, and publishes and lists from plain Node", async () => {
    const tarball = await packTarball(scratch.path);
    const project = join(scratch.path, "project");
    cpSync(join(sdk, "test", "support", "package-project"), project, { recursive: true });
    await run("npm", ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: project, timeout: 300_000 });

    const installed = JSON.parse(readFileSync(join(project, "node_modules", "@herald", "sdk", "package.json"), "utf8"));
    expect(installed).toMatchObject({ name: "@herald/sdk", version: "0.1.0", license: "MIT" });
    expect(installed.private).toBeUndefined();
    expect(Object.keys(installed.exports)).toEqual([".", "./svelte", "./react", "./inbox-element", "./ui/*", "./package.json"]);
    // The framework bindings are optional peers: a plain Node project gets neither.
    const lock = readFileSync(join(project, "package-lock.json"), "utf8");
    expect(lock).not.toContain('"node_modules/react"');
    expect(lock).not.toContain('"node_modules/svelte"');

    // The shipped .d.ts files type a consumer's code (a wrong field is an error there).
    await run(process.execPath, [tsc, "-p", "."], { cwd: project });
    writeFileSync(join(project, "wrong.ts"), 'import { createHeraldClient } from "@herald/sdk";\ncreateHeraldClient({ url: 1 });\n');
    const wrong = await run(process.execPath, [tsc, "--noEmit", "--module", "nodenext", "--moduleResolution", "nodenext", "--skipLibCheck", "wrong.ts"], {
      cwd: project,
    }).then(
      () => "",
      (error: { stdout: string }) => error.stdout,
    );
    expect(wrong).toContain("wrong.ts(2,");

    const person = await server.newPerson("Packed");
    const { stdout } = await run(process.execPath, ["main.mjs"], {
      cwd: project,
      env: { ...process.env, HERALD_URL: server.url, HERALD_PRODUCER_KEY: server.producerKey, HERALD_PERSON_ID: person.id, HERALD_PERSON_TOKEN: person.token },
    });
    const result = JSON.parse(stdout.trim().split("\n").at(-1)!);
    expect(result.published).toMatchObject({ title: "Packed and published", revision: 1 });
    expect(result.listed).toEqual([result.published.id]);
    expect(result.invalid).toEqual({ name: "HeraldValidationError", field: "title" });
  }, 600_000); // a build, a pack, an install and two type-checks on a shared machine
});
