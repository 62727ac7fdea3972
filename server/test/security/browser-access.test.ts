// Browsers: only listed origins get CORS headers (with credentials); GraphiQL, with every asset
// served by Herald (it works offline), is served only where it is switched on (off by default in
// production), and is tried in real Chromium when there is one.
import { existsSync } from "node:fs";
import { get, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, tuningFrom } from "@herald/server/config";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { send } from "./wire.ts";

const dashboard = "https://dashboard.example";
const CHROMIUM = process.env.HERALD_CHROMIUM ?? "/usr/bin/chromium";

describe("browser access settings", () => {
  it("allows no origin by default, and the dashboard's plus the listed ones when set", () => {
    expect(tuningFrom(loadConfig({})).corsOrigins).toEqual([]);
    const tuning = tuningFrom(loadConfig({ HERALD_DASHBOARD_URL: `${dashboard}/app/`, HERALD_CORS_ORIGINS: "https://a.example, https://b.example:8443" }));
    expect(tuning.corsOrigins.sort()).toEqual(["https://a.example", "https://b.example:8443", dashboard].sort());
    expect(() => tuningFrom(loadConfig({ HERALD_CORS_ORIGINS: "not a url" }))).toThrow(/HERALD_CORS_ORIGINS/);
  });

  it("serves GraphiQL in development, not in production, unless HERALD_GRAPHIQL says otherwise", () => {
    expect(tuningFrom(loadConfig({})).graphiql).toBe(true);
    expect(tuningFrom(loadConfig({ NODE_ENV: "production" })).graphiql).toBe(false);
    expect(tuningFrom(loadConfig({ NODE_ENV: "production", HERALD_GRAPHIQL: "true" })).graphiql).toBe(true);
    expect(tuningFrom(loadConfig({ HERALD_GRAPHIQL: "off" })).graphiql).toBe(false);
  });
});

for (const provider of providers) {
  describe.skipIf(!provider.available)(`browser access on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider, { corsOrigins: [dashboard], graphiql: false });
    });
    afterAll(async () => h?.close());

    const preflight = (origin: string) =>
      send(h.url, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
      });

    it("reflects no foreign origin, with or without credentials", async () => {
      for (const response of [
        await preflight("https://evil.example"),
        await send(h.url, {
          method: "POST",
          headers: { origin: "https://evil.example", "content-type": "application/json" },
          body: '{"query":"{ __typename }"}',
        }),
      ]) {
        expect(response.headers.get("access-control-allow-origin")).toBeNull();
        expect(response.headers.get("access-control-allow-credentials")).toBeNull();
      }
    });

    it("allows the dashboard's origin with credentials", async () => {
      const response = await preflight(dashboard);
      expect(response.headers.get("access-control-allow-origin")).toBe(dashboard);
      expect(response.headers.get("access-control-allow-credentials")).toBe("true");
    });

    it("does not serve GraphiQL when it is off", async () => {
      const page = await send(h.url, { headers: { accept: "text/html" } });
      expect(page.text).not.toMatch(/graphiql/i);
      expect(page.headers.get("content-type") ?? "").not.toContain("text/html");
    });
  });
}

/** One GET as a browser sends it; the body as it came over the wire (still compressed). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    }).on("error", reject);
  });
}

const assetsOf = (html: string) => [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="(\/graphql\/graphiql\/[^"]+)"/g)].map((m) => m[1]!);

describe.skipIf(!providers[0]!.available)("GraphiQL switched on", () => {
  let h: TestHerald;
  beforeAll(async () => {
    h = await startHerald(providers[0]!, { graphiql: true });
  });
  afterAll(async () => h?.close());

  it("serves a small page that runs no inline code, loads its script and stylesheet from Herald, under a strict CSP", async () => {
    const page = await send(h.url, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.text).toMatch(/<title>Herald GraphiQL<\/title>/);
    expect(page.text.length).toBeLessThan(4_000);
    expect(assetsOf(page.text)).toEqual([
      expect.stringMatching(/^\/graphql\/graphiql\/graphiql-[\w-]+\.css$/),
      expect.stringMatching(/^\/graphql\/graphiql\/graphiql-[\w-]+\.js$/),
    ]);
    // Every <script> either loads from Herald or is data (the options), never inline code.
    for (const [tag] of page.text.matchAll(/<script\b[^>]*>/g)) expect(tag).toMatch(/\bsrc="\/graphql\/graphiql\/|type="application\/json"/);
    expect(page.text).not.toMatch(/https?:\/\/|unpkg\.com|cdn\.jsdelivr\.net/);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/(^|; )script-src 'self'(;|$)/);
    expect(csp).toMatch(/(^|; )connect-src 'self'(;|$)/);
    expect(csp).toMatch(/(^|; )default-src 'none'(;|$)/);
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  });

  it("serves GraphiQL only to a browser asking for HTML", async () => {
    const page = await send(`${h.url}?query=%7B__typename%7D`, { headers: { accept: "application/json" } });
    expect(page.text).not.toMatch(/graphiql/i);
    expect(page.headers.get("content-type") ?? "").not.toContain("text/html");
  });

  it("sends the assets compressed (brotli, gzip), typed, cached for good, under 2.5 MB with the page, and 404 for an unknown asset", async () => {
    const page = await rawGet(h.url, { accept: "text/html", "accept-encoding": "gzip, deflate, br" });
    let transferred = page.body.length;
    for (const path of assetsOf(page.body.toString())) {
      const url = new URL(path, h.url).toString();
      const br = await rawGet(url, { accept: "*/*", "accept-encoding": "gzip, deflate, br" });
      expect(br.status).toBe(200);
      expect(br.headers["content-type"]).toBe(path.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8");
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(br.headers.vary).toContain("accept-encoding");
      transferred += br.body.length;
      const gzip = await rawGet(url, { "accept-encoding": "gzip" });
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      const plain = await rawGet(url, {});
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
      // Named by its content: the name's hash is the ETag, and a browser holding it gets a 304.
      expect(br.headers.etag).toBe(`"${/-([\w-]+)\.\w+$/.exec(path)![1]}"`);
      const again = await rawGet(url, { "accept-encoding": "br", "if-none-match": br.headers.etag! });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    }
    expect(transferred).toBeLessThan(2_500_000);
    for (const unknown of ["graphiql-AAAAAAAAAAAAAAAA.js", "manifest.json", "..%2Fmanifest.json", ""]) {
      expect((await rawGet(`${h.url}/graphiql/${unknown}`, { accept: "*/*" })).status, unknown).toBe(404);
    }
  });

  it("revalidates the page by ETag: a browser holding it gets a 304 without a body", async () => {
    const first = await fetch(h.url, { headers: { accept: "text/html" } });
    expect(await first.text()).toContain("Herald GraphiQL");
    expect(first.headers.get("cache-control")).toBe("no-cache");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(h.url, { headers: { accept: "text/html", "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  describe.skipIf(!existsSync(CHROMIUM))(`in Chromium (${CHROMIUM})`, () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking"],
      });
    });
    afterAll(async () => browser?.close());

    it("is quiet until the person acts, invites the token in Headers, loads Docs once a token is set, runs queries and subscriptions, and keeps to its CSP", async () => {
      const person = await h.newPerson("GraphiQL reader");
      const context = await browser.newContext();
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
      page.on("pageerror", (error) => problems.push(error.message));
      page.on("response", (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
      const apiRequests: { body: string; authorization: string }[] = [];
      const transferred: Promise<number>[] = [];
      page.on("request", (request) => {
        if (request.url() === h.url && request.method() !== "GET")
          apiRequests.push({ body: request.postData() ?? "", authorization: request.headers().authorization ?? "" });
      });
      page.on("requestfinished", (request) => void transferred.push(request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize)));

      await page.goto(h.url);
      await page.locator('button[aria-label^="Execute query"]').waitFor({ state: "visible" });
      await page.locator(".graphiql-query-editor .CodeMirror").waitFor();
      await page.waitForLoadState("load");
      expect((await Promise.all(transferred)).reduce((a, b) => a + b, 0)).toBeLessThan(2_500_000);
      // The header editor is open and holds the placeholder that says what goes there.
      await expect.poll(() => page.locator(".graphiql-editor-tool .CodeMirror").last().textContent()).toContain("Bearer <person token or producer key>");

      // Docs opened before a token is set: told to set one, answered in the page, nothing sent.
      await page.getByRole("button", { name: /Show Documentation Explorer/i }).click();
      await page.locator('html[data-herald-schema="waiting-for-token"]').waitFor({ state: "attached" });
      await page.getByText("Set your token in Headers below").first().waitFor();
      expect(apiRequests).toEqual([]);

      // The token typed into the header editor: one schema request with it, and Docs show the root types.
      await page.locator(".graphiql-editor-tool .CodeMirror").last().click();
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.press("Delete");
      // The editor closes the quote and the brace itself.
      await page.keyboard.type(`{"Authorization": "Bearer ${person.token}`);
      await page.locator('html[data-herald-schema="requested"]').waitFor({ state: "attached" });
      await page.getByText("Root Types").waitFor();
      expect(apiRequests.map((r) => [r.body.includes('"operationName":"IntrospectionQuery"'), r.authorization])).toEqual([[true, `Bearer ${person.token}`]]);

      // The person runs the prefilled query: it goes out with the token and its answer shows.
      await page.locator('button[aria-label^="Execute query"]').click();
      await page.locator(".graphiql-response").getByText('"GraphiQL reader"').waitFor();
      expect(apiRequests).toHaveLength(2);
      expect(apiRequests[1]!.authorization).toBe(`Bearer ${person.token}`);
      // A subscription goes out as server-sent events on the same endpoint, and its events show as they come.
      await page.evaluate(() => {
        const editor = document.querySelector(".graphiql-query-editor .CodeMirror") as unknown as { CodeMirror: { setValue(v: string): void } };
        editor.CodeMirror.setValue("subscription Live { notificationEvents { __typename } }");
      });
      // GraphiQL takes the operation's name from the editor a moment later; its saved tabs show when it has.
      await expect.poll(() => page.evaluate(() => localStorage.getItem("graphiql:tabState") ?? "")).toContain('"operationName":"Live"');
      await page.locator('button[aria-label^="Execute query"]').click();
      await h.attached(person.id);
      await h.publish({ scope: "PERSON", personId: person.id, key: "graphiql-live", title: "Live in GraphiQL" });
      await page.locator(".graphiql-response").getByText('"notificationEvents"').waitFor();
      expect(apiRequests).toHaveLength(3);
      expect(apiRequests[2]!.body).toContain("subscription Live");
      await page.locator('button[aria-label^="Stop query"]').click();
      // No script, style or connection was refused by the CSP, and nothing failed.
      expect(problems).toEqual([]);
      await context.close();
    });
  });
});
