// GraphiQL served by Herald itself, so it works without the internet (Yoga's default page loads
// its scripts from a CDN). The page at /graphql is a small shell; its script and stylesheet
// (GraphiQL 4 with CodeMirror 5 and React, bundled at build time by scripts/build-graphiql.mjs
// from graphiql/page.ts) are under /graphql/graphiql/, named by a hash of their content, stored
// pre-compressed (brotli, gzip) and cached by browsers for good. The shell is revalidated by ETag
// (a 304 without a body), so a new build's assets are picked up on the next load.
//
// The page runs no inline code: its options travel as JSON in a non-script element, and a
// Content-Security-Policy allows scripts from Herald only and connections to Herald only.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import type { GraphiQLOptions, Plugin } from "graphql-yoga";

/** Where build-graphiql.mjs writes; the same from src/ (tests) and dist/ (the build). */
const ASSETS = new URL("../../../dist/graphiql/", import.meta.url);

export const GRAPHIQL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // GraphiQL's components set style attributes; no script can come of a style.
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

interface Manifest {
  script: string;
  style: string;
  files: Record<string, { type: string; etag: string }>;
}

interface Asset {
  type: string;
  etag: string;
  identity: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  br: Uint8Array<ArrayBuffer>;
}

const read = (name: string) => new Uint8Array(readFileSync(new URL(name, ASSETS)));

function loadAssets(): { manifest: Manifest; assets: Map<string, Asset> } | null {
  const manifestUrl = new URL("manifest.json", ASSETS);
  if (!existsSync(manifestUrl)) return null;
  const manifest = JSON.parse(readFileSync(manifestUrl, "utf8")) as Manifest;
  const assets = new Map<string, Asset>();
  for (const [name, { type, etag }] of Object.entries(manifest.files)) {
    assets.set(name, { type, etag, identity: read(name), gzip: read(`${name}.gz`), br: read(`${name}.br`) });
  }
  return { manifest, assets };
}

/** Keeps `<` out of the JSON so the text cannot close the element it sits in. */
const jsonInHtml = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function shell(prefix: string, manifest: Manifest, options: GraphiQLOptions): string {
  const pageOptions = {
    title: options.title ?? "GraphiQL",
    defaultQuery: options.defaultQuery ?? "",
    headers: options.headers ?? "",
    defaultEditorToolsVisibility: options.defaultEditorToolsVisibility ?? false,
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(pageOptions.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${prefix}${manifest.style}">
<script type="module" src="${prefix}${manifest.script}"></script>
<script type="application/json" id="herald-graphiql-options">${jsonInHtml(pageOptions)}</script>
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body><div id="graphiql"></div></body>
</html>
`;
}

const UNBUILT = `GraphiQL's assets are not built: run \`npm run build\` in server/ (scripts/build-graphiql.mjs).`;

/**
 * GraphiQL at `endpoint` for a browser's GET (Accept: text/html), and its assets under
 * `${endpoint}/graphiql/`. Yoga's own GraphiQL is off: it sends a page of about 9 MB, uncached.
 */
export function useGraphiQLPage(endpoint: string, options: GraphiQLOptions): Plugin {
  const prefix = `${endpoint}/graphiql/`;
  // Read once, at the first request (a server without GraphiQL never reads them); looked for
  // again while they are missing, so a build finished later is picked up.
  let loaded: ReturnType<typeof loadAssets> = null;
  let page: { body: string; etag: string } | null = null;
  const load = () => {
    if (!loaded) {
      loaded = loadAssets();
      if (loaded) {
        const body = shell(prefix, loaded.manifest, options);
        page = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
      }
    }
    return loaded;
  };
  return {
    onRequest({ request, url, endResponse }) {
      if (request.method !== "GET" && request.method !== "HEAD") return;
      if (url.pathname.startsWith(prefix)) {
        const asset = load()?.assets.get(url.pathname.slice(prefix.length));
        if (!asset) return endResponse(new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } }));
        const headers: Record<string, string> = {
          "content-type": asset.type,
          etag: asset.etag,
          // The name changes with the content, so what a browser holds under it is never stale.
          "cache-control": "public, max-age=31536000, immutable",
          vary: "accept-encoding",
          "x-content-type-options": "nosniff",
        };
        if (request.headers.get("if-none-match") === asset.etag) return endResponse(new Response(null, { status: 304, headers }));
        const accepted = request.headers.get("accept-encoding") ?? "";
        const [body, encoding] = /\bbr\b/.test(accepted) ? [asset.br, "br"] : /\bgzip\b/.test(accepted) ? [asset.gzip, "gzip"] : [asset.identity, null];
        if (encoding) headers["content-encoding"] = encoding;
        return endResponse(new Response(request.method === "HEAD" ? null : body, { headers }));
      }
      if (request.method !== "GET" || url.pathname !== endpoint || !request.headers.get("accept")?.includes("text/html")) return;
      if (!load() || !page) return endResponse(new Response(UNBUILT, { status: 503, headers: { "content-type": "text/plain; charset=utf-8" } }));
      const headers = {
        etag: page.etag,
        "cache-control": "no-cache",
        vary: "accept, accept-encoding",
        "content-security-policy": GRAPHIQL_CSP,
        "x-content-type-options": "nosniff",
      };
      if (request.headers.get("if-none-match") === page.etag) return endResponse(new Response(null, { status: 304, headers }));
      return endResponse(new Response(page.body, { headers: { ...headers, "content-type": "text/html; charset=utf-8" } }));
    },
  };
}
