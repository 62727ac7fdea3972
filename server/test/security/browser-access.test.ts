// Browsers: only listed origins get CORS headers (with credentials); GraphiQL, with every asset
// inside its page (it works offline), is served only where it is switched on (off by default in
// production).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, tuningFrom } from "@herald/server/config";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { send } from "./wire.ts";

const dashboard = "https://dashboard.example";

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

describe.skipIf(!providers[0]!.available)("GraphiQL switched on", () => {
  let h: TestHerald;
  beforeAll(async () => {
    h = await startHerald(providers[0]!, { graphiql: true });
  });
  afterAll(async () => h?.close());

  it("serves the page with its scripts and styles inside it, nothing from another host", async () => {
    const page = await send(h.url, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/Herald GraphiQL/);
    expect(page.text).toContain("YogaGraphiQL.renderYogaGraphiQL");
    // No <script src>, stylesheet or icon fetched from elsewhere (Yoga's default page uses a CDN).
    expect(page.text.match(/<(script|link)\b[^>]*\b(src|href)=["']?https?:\/\/[^\s>]*/gi) ?? []).toEqual([]);
    expect(page.text).not.toMatch(/unpkg\.com|cdn\.jsdelivr\.net/);
    // Herald sends no Content-Security-Policy for it; one would have to allow its inline scripts and blob: workers.
    expect(page.headers.get("content-security-policy")).toBeNull();
  });

  it("sends the page gzip-compressed under 2.5 MB, and a browser holding it gets a 304 without a body", async () => {
    const first = await fetch(h.url, { headers: { accept: "text/html", "accept-encoding": "gzip" } });
    expect(first.headers.get("content-encoding")).toBe("gzip");
    expect(Number(first.headers.get("content-length"))).toBeLessThan(2_500_000);
    expect(await first.text()).toContain("Herald GraphiQL");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(h.url, { headers: { accept: "text/html", "accept-encoding": "gzip", "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });
});
