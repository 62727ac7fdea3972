// GraphiQL with its scripts, styles and editor workers inside the page
// (@graphql-yoga/render-graphiql), so it works without the internet: Yoga's default page loads
// them from a CDN and stays a blank "Loading…" offline. The page is about 9 MB: it is built when
// GraphiQL is first opened, once, and sent gzip-compressed (about 2.4 MB) with an ETag, so a
// browser that has it asks again and gets a 304 without a body.
//
// In the page, nothing is sent before the person acts: the schema (Docs, completion) is asked
// for once the header editor holds a token, and again whenever it holds another one; until then
// GraphiQL is told, without a request, to set the token first. The page's <html> says which
// (data-herald-schema: waiting-for-token, requested) for tests and for anyone debugging it.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { GraphiQLOptions, Plugin } from "graphql-yoga";

const gzipped = promisify(gzip);

/** Runs in the page before GraphiQL starts (plain browser JavaScript, no bundler). */
const PAGE_SCRIPT = `
(function () {
  var ENDPOINT = new URL(location.pathname, location.href).toString();
  function tokenOf(headers) {
    try {
      var parsed = typeof headers === "string" ? JSON.parse(headers || "{}") : headers || {};
      var value = "";
      Object.keys(parsed).forEach(function (name) { if (name.toLowerCase() === "authorization") value = String(parsed[name]); });
      var match = /^Bearer\\s+([^\\s<>]+)$/.exec(value.trim());
      return match ? match[1] : null;
    } catch (e) { return null; }
  }
  function headersOf(init) {
    var out = {};
    new Headers((init && init.headers) || {}).forEach(function (v, k) { out[k] = v; });
    return out;
  }
  var sendFetch = window.fetch.bind(window);
  // GraphiQL asks for the schema as it starts; without a token that request could only fail
  // (UNAUTHENTICATED) and leave "Error fetching schema" until a reload.
  window.fetch = function (input, init) {
    var url = typeof input === "string" ? input : input.url;
    var body = init && typeof init.body === "string" ? init.body : "";
    if (url === ENDPOINT && body.indexOf('"operationName":"IntrospectionQuery"') !== -1 && !tokenOf(headersOf(init))) {
      document.documentElement.dataset.heraldSchema = "waiting-for-token";
      var message = 'Set your token in Headers below: {"Authorization": "Bearer <person token or producer key>"}. Docs load as soon as it is there.';
      return Promise.resolve(new Response(JSON.stringify({ errors: [{ message: message }] }), { status: 200, headers: { "content-type": "application/json" } }));
    }
    return sendFetch(input, init);
  };
  var introspectedWith = null;
  var pending = null;
  window.heraldRenderGraphiQL = function (root, options) {
    options.onEditHeaders = function (headers) {
      var token = tokenOf(headers);
      if (!token || token === introspectedWith) return;
      clearTimeout(pending);
      // After a pause in typing: one schema request for the token the person settled on.
      pending = setTimeout(function () {
        var refetch = document.querySelector('button[aria-label^="Re-fetch GraphQL schema"]');
        if (!refetch) return;
        introspectedWith = token;
        document.documentElement.dataset.heraldSchema = "requested";
        refetch.click();
      }, 400);
    };
    window.YogaGraphiQL.renderYogaGraphiQL(root, options);
  };
})();
`;

interface Page {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

let built: { key: string; page: Promise<Page> } | null = null;

function buildPage(options: GraphiQLOptions): Promise<Page> {
  const key = JSON.stringify(options);
  if (built?.key !== key) {
    const page = import("@graphql-yoga/render-graphiql").then(async ({ renderGraphiQL }) => {
      // The render call is redirected before the page script goes in: that script calls the real
      // render function itself, and a replace after it would rewrite its call instead.
      const html = renderGraphiQL(options)
        .replace("YogaGraphiQL.renderYogaGraphiQL(", "heraldRenderGraphiQL(")
        .replace("<head>", () => `<head>\n<script>${PAGE_SCRIPT}</script>`);
      const compressed = await gzipped(html, { level: 9 });
      const body = new Uint8Array(compressed.buffer.slice(compressed.byteOffset, compressed.byteOffset + compressed.byteLength));
      return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
    });
    // A failed build is tried again on the next request rather than remembered.
    page.catch(() => (built = null));
    built = { key, page };
  }
  return built.page;
}

/**
 * GraphiQL at `endpoint` for a browser's GET (Accept: text/html), compressed and revalidated by
 * ETag. Yoga's own GraphiQL is off: it sends the page uncompressed and uncached.
 */
export function useGraphiQLPage(endpoint: string, options: GraphiQLOptions): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      if (request.method !== "GET" || url.pathname !== endpoint || !request.headers.get("accept")?.includes("text/html")) return;
      const page = await buildPage(options);
      const headers = { etag: page.etag, "cache-control": "no-cache", vary: "accept, accept-encoding" };
      if (request.headers.get("if-none-match") === page.etag) return endResponse(new Response(null, { status: 304, headers }));
      // Every browser accepts gzip; a client that does not gets the page it asked for all the same.
      if (!/\bgzip\b/.test(request.headers.get("accept-encoding") ?? "")) {
        const { gunzipSync } = await import("node:zlib");
        return endResponse(new Response(gunzipSync(page.body), { headers: { ...headers, "content-type": "text/html; charset=utf-8" } }));
      }
      return endResponse(new Response(page.body, { headers: { ...headers, "content-type": "text/html; charset=utf-8", "content-encoding": "gzip" } }));
    },
  };
}
