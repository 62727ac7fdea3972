// GraphiQL's assets: server/graphiql/page.ts bundled (with GraphiQL 4, React and their styles)
// into dist/graphiql/, each file named by a hash of its content and stored with its gzip and
// brotli forms beside it, so the server sends them as they are, cached for good (immutable).
// manifest.json says which files the page loads and what each one is. Run by build.mjs; on its
// own: `node scripts/build-graphiql.mjs`.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const server = join(import.meta.dirname, "..");
export const graphiqlOut = join(server, "dist", "graphiql");

const TYPES = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };

export async function buildGraphiQL() {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [{ in: join(server, "graphiql", "page.ts"), out: "graphiql" }],
    bundle: true,
    format: "esm",
    minify: true,
    // Browsers of the last years; CodeMirror 5 and React need nothing newer.
    target: ["es2020"],
    define: { "process.env.NODE_ENV": '"production"' },
    legalComments: "none",
    // GraphiQL's stylesheet carries its fonts; inline, they cost no request.
    loader: { ".woff2": "dataurl", ".woff": "dataurl", ".ttf": "dataurl", ".svg": "dataurl" },
    write: false,
    outdir: "out",
    logLevel: "warning",
  });
  rmSync(graphiqlOut, { recursive: true, force: true });
  mkdirSync(graphiqlOut, { recursive: true });
  const manifest = { script: "", style: "", files: {} };
  for (const file of result.outputFiles) {
    const extension = file.path.endsWith(".css") ? ".css" : ".js";
    const hash = createHash("sha256").update(file.contents).digest("base64url").slice(0, 16);
    const name = `${basename(file.path, extension)}-${hash}${extension}`;
    writeFileSync(join(graphiqlOut, name), file.contents);
    writeFileSync(join(graphiqlOut, `${name}.gz`), gzipSync(file.contents, { level: 9 }));
    writeFileSync(
      join(graphiqlOut, `${name}.br`),
      brotliCompressSync(file.contents, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: file.contents.length },
      }),
    );
    manifest.files[name] = { type: TYPES[extension], etag: `"${hash}"` };
    manifest[extension === ".css" ? "style" : "script"] = name;
  }
  // Written last: a manifest means a complete set of assets.
  writeFileSync(join(graphiqlOut, "manifest.json"), JSON.stringify(manifest, null, 2));
  return manifest;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const manifest = await buildGraphiQL();
  for (const name of readdirSync(graphiqlOut).sort()) {
    if (name in manifest.files || /\.(gz|br)$/.test(name)) console.log(`${name}: ${readFileSync(join(graphiqlOut, name)).length} bytes`);
  }
}
