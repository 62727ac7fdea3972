// A newcomer's first minutes on a clone of this repository's committed HEAD, following the README:
// `npm ci` (checked with `npm ci --dry-run`: no EBADENGINE) and `npm start`, then the printed
// block, its sign-in link in Chromium, GraphiQL (compressed, and silent until the person acts),
// and SIGINT, SIGTERM and SIGHUP sent to the npm process alone stopping everything it started.
//
// A full `npm ci` (a minute or more on a shared two-core machine, beside the other suites) is
// too slow for a test: the clone gets this checkout's installed node_modules folders as hard links,
// without its caches (node_modules/.cache: the generation stamp and turbo's build cache), so the
// start generates and builds as on a fresh install.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually, freePort, stopProcess } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, browserAvailability, launch } from "./support/browser";
import { alive, descendantsOf } from "./support/process-tree";

const root = join(import.meta.dirname, "..", "..");
const browsers = browserAvailability();

/** Whether something accepts connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

interface Started {
  npm: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  ports: number[];
}

describe.skipIf(!browsers.run)("a newcomer's first start, on a clone", () => {
  let clone: string;
  const running: ChildProcess[] = [];

  beforeAll(() => {
    clone = mkdtempSync(join(tmpdir(), "herald-newcomer-"));
    execFileSync("git", ["clone", "--quiet", root, clone]);
    // The root's and each workspace's own (packages npm could not hoist).
    for (const dir of [".", "server", "sdk", "app", "testkit", "bench", "integrations"]) {
      if (existsSync(join(root, dir, "node_modules"))) execFileSync("cp", ["-al", join(root, dir, "node_modules"), join(clone, dir, "node_modules")]);
    }
    rmSync(join(clone, "node_modules", ".cache"), { recursive: true, force: true });
  }, 300_000);

  afterAll(async () => {
    for (const npm of running) for (const pid of [...descendantsOf(npm.pid!), npm.pid!]) if (alive(pid)) process.kill(pid, "SIGKILL");
    rmSync(clone, { recursive: true, force: true });
  });

  /** `npm start` in the clone, resolved once it has printed its block. */
  async function npmStart(): Promise<Started> {
    const ports = [await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(ports[0]), APP_PORT: String(ports[1]), HOST: "127.0.0.1" };
    for (const name of ["DATABASE_URL", "HERALD_LOG_FORMAT", "LOG_LEVEL", "NODE_ENV", "CI"]) delete env[name];
    const npm = spawn("npm", ["start"], { cwd: clone, env, stdio: ["ignore", "pipe", "pipe"] });
    running.push(npm);
    let stdout = "";
    let stderr = "";
    npm.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
    npm.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    await eventually(() => /Herald is running[\s\S]*\n\n/.test(stdout) || npm.exitCode !== null, 540_000, "npm start's block");
    expect(npm.exitCode, `${stdout}\n${stderr}`).toBeNull();
    console.log(stdout.replace(/herald_(pt|pk|sc)_\S+/g, "herald_$1_…")); // the block, for the log (its time to ready)
    return { npm, stdout: () => stdout, stderr: () => stderr, ports };
  }

  /** Sends `signal` to npm alone; everything it started ends and nothing listens any more. */
  async function stopsOn(started: Started, signal: NodeJS.Signals) {
    const all = descendantsOf(started.npm.pid!);
    expect(all.length).toBeGreaterThanOrEqual(3); // the script, the server, the dashboard
    process.kill(started.npm.pid!, signal);
    await eventually(() => all.every((pid) => !alive(pid)), 20_000, `every process npm start started to end on ${signal}`);
    for (const port of started.ports) expect(await listening(port), `port ${port} after ${signal}`).toBe(false);
    if (alive(started.npm.pid!)) await stopProcess(started.npm, "SIGKILL"); // npm itself dies by SIGHUP's default action
  }

  it("installs without EBADENGINE, starts with one block, signs in by its link, serves a quiet GraphiQL whose Docs load once a token is set, and stops on SIGINT", async () => {
    const dryRun = execFileSync("npm", ["ci", "--dry-run", "--no-audit", "--no-fund"], { cwd: clone, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    expect(dryRun).not.toContain("EBADENGINE");

    const started = await npmStart();
    const [serverPort, appPort] = started.ports;
    // npm's own "> herald@0.1.0 start" lines aside, what is printed for a person: a line while it
    // prepares, then the block; no tool chatter.
    const out = started.stdout().replace(/^\n?(> .*\n)+\n?/, "");
    expect(out).toMatch(/^Preparing Herald[^\n]*\n\nHerald is running/);
    expect(out).toContain(`Dashboard:        http://127.0.0.1:${appPort}`);
    expect(out).toContain(`GraphQL/GraphiQL: http://127.0.0.1:${serverPort}/graphql`);
    expect(out).toMatch(/Person token: +herald_pt_/);
    expect(out).toMatch(/Producer key: +herald_pk_/);
    expect(out).not.toMatch(/prisma|turbo|HERALD_READY|"level":/i);
    // Not a terminal: the server's log records are JSON lines.
    expect(started.stderr()).not.toMatch(/Loaded Prisma config|prisma\.config/);
    const link = new RegExp(`Sign in \\(once\\): +(http://127\\.0\\.0\\.1:${appPort}/signin/\\S+)`).exec(out)?.[1];
    expect(link, out).toBeDefined();

    const browser: Browser = await launch(`http://127.0.0.1:${appPort}`);
    try {
      await browser.page.goto(link!);
      await browser.page.getByRole("button", { name: "Continue to the dashboard" }).click();
      await browser.page.getByRole("heading", { name: "Hello, Demo person" }).waitFor();

      // GraphiQL: the page and its assets compressed, under 2.5 MB, and no request to the API until the person acts.
      const graphiql = `http://127.0.0.1:${serverPort}/graphql`;
      const page = await browser.context.newPage();
      const apiRequests: { method: string; body: string; authorization: string }[] = [];
      const encodings: string[] = [];
      const transferred: Promise<number>[] = [];
      page.on("request", (request) => {
        if (request.url().startsWith(graphiql) && request.method() !== "GET") {
          apiRequests.push({ method: request.method(), body: request.postData() ?? "", authorization: request.headers().authorization ?? "" });
        }
      });
      page.on("response", (response) => {
        if (response.url().startsWith(`${graphiql}/graphiql/`)) encodings.push(response.headers()["content-encoding"] ?? "none");
      });
      page.on("requestfinished", (request) => void transferred.push(request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize)));
      await page.goto(graphiql);
      // The page's script and stylesheet, compressed; all of it under 2.5 MB.
      expect(encodings).toEqual(["br", "br"]);
      expect((await Promise.all(transferred)).reduce((a, b) => a + b, 0)).toBeLessThan(2_500_000);
      // Docs opened before a token is set: told to set one, answered in the page, nothing sent.
      await page.getByRole("button", { name: /Show Documentation Explorer/i }).click();
      await page.locator('html[data-herald-schema="waiting-for-token"]').waitFor({ state: "attached" });
      expect(apiRequests).toEqual([]);

      // The token set in the header editor (replacing the placeholder there): one schema request
      // with it, and Docs show the schema's root types.
      const personToken = /Person token: +(herald_pt_\S+)/.exec(out)![1]!;
      await page.getByText("Headers", { exact: true }).click();
      await page.locator(".graphiql-editor-tool .graphiql-editor").last().click();
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.press("Delete");
      // The editor closes the quote and the brace itself.
      await page.keyboard.type(`{"Authorization": "Bearer ${personToken}`);
      await page.locator('html[data-herald-schema="requested"]').waitFor({ state: "attached" });
      await page.getByText("Root Types").waitFor();
      expect(apiRequests.map((r) => [r.body.includes('"operationName":"IntrospectionQuery"'), r.authorization])).toEqual([[true, `Bearer ${personToken}`]]);
    } finally {
      await browser.close();
    }

    await stopsOn(started, "SIGINT");
  }, 900_000);

  it("stops everything on SIGTERM, and on SIGHUP, sent to npm alone; later starts say how to get a sign-in link", async () => {
    const first = await npmStart();
    expect(first.stdout()).toContain("npx herald signin <personId>");
    await stopsOn(first, "SIGTERM");
    const second = await npmStart();
    await stopsOn(second, "SIGHUP");
  }, 1_200_000);
});
