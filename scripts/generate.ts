// Regenerates every derived file, or with --check verifies that none has drifted.
//
// Derived and committed: prisma/<provider>/schema.prisma, server/schema.graphql,
//                        sdk/src/generated/graphql.ts, docs/openapi.json,
//                        server/src/storage/generated/ (table types and columns).
// Migrations are authored by `npm run migration:new`; --check fails when the models changed
// without one (the schema a provider's last migration was made from is kept beside it).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { configPath, deriveSchema, generating, providerDir, providers, root } from "./prisma-providers.ts";
import { tableColumnsSource } from "./table-columns.ts";

const check = process.argv.includes("--check");
const drift: string[] = [];

function writeOrCheck(path: string, content: string) {
  const current = existsSync(path) ? readFileSync(path, "utf8") : null;
  if (current === content) return;
  if (check) drift.push(path.slice(root.length + 1));
  else writeFileSync(path, content);
}

for (const provider of providers) {
  const schemaPath = join(providerDir(provider), "schema.prisma");
  const schema = deriveSchema(provider);
  writeOrCheck(schemaPath, schema);
  const snapshot = join(providerDir(provider), "migrations", "schema.at-last-migration.prisma");
  const migrated = existsSync(snapshot) ? readFileSync(snapshot, "utf8") : "";
  if (migrated !== schema) {
    drift.push(`${provider}: models changed without a migration (run npm run migration:new -- <name>)`);
  }
  if (!check && generating.includes(provider)) {
    // With no Prisma client among the generators the CLI would download a query engine (it cannot
    // be fetched here, and nothing runs one): the engine-free client type needs none.
    execFileSync("npx", ["prisma", "generate", "--config", configPath(provider)], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, PRISMA_CLIENT_ENGINE_TYPE: "client" },
    });
  }
}

// Every table's columns and their kinds, for storage/ at run time (its types come from prisma-kysely,
// run by the PostgreSQL schema's generator above).
writeOrCheck(join(root, "server", "src", "storage", "generated", "columns.ts"), await tableColumnsSource());

// The GraphQL schema is printed from the code-first Pothos schema (SDK codegen reads it).
const printed = execFileSync("node", ["--import", "tsx", "server/src/transport/graphql/print-schema.ts"], {
  cwd: root,
  encoding: "utf8",
});
writeOrCheck(join(root, "server", "schema.graphql"), printed);

// The producer HTTP API's OpenAPI document, as the server serves it at /api/v1/openapi.json.
const openApi = execFileSync("node", ["--import", "tsx", "server/src/transport/http/print-openapi.ts"], {
  cwd: root,
  encoding: "utf8",
});
writeOrCheck(join(root, "docs", "openapi.json"), openApi);

// The SDK's typed documents from that schema (codegen.ts). In --check mode CI compares the
// regenerated file with the committed one through git instead.
if (!check) {
  execFileSync("npx", ["graphql-codegen", "--config", "codegen.ts", "--silent"], { cwd: root, stdio: "inherit" });
  const generated = join(root, "sdk", "src", "generated", "graphql.ts");
  writeFileSync(generated, compactDocuments(readFileSync(generated, "utf8")));
}

/**
 * The documents travel as source in every request and inside <herald-inbox>, whose size has a
 * goal: printed without layout (one space between names, none around punctuation). Sound
 * because the SDK's operations hold no string literals, where spaces would mean something.
 */
function compactDocuments(source: string): string {
  return source.replace(/(new TypedDocumentString\(`)([^`]*)`/g, (_, opening: string, document: string) => {
    if (document.includes('"')) throw new Error("An SDK operation holds a string literal: compactDocuments would change it.");
    return `${opening}${document
      .trim()
      .replace(/\s+/g, " ")
      .replace(/ ?([{}():,!=$[\]]) ?/g, "$1")}\``;
  });
}

if (drift.length > 0) {
  console.error(`Derived files are out of date:\n  ${drift.join("\n  ")}\nRun npm run generate.`);
  process.exit(1);
}
console.log(check ? "No drift in derived files." : "Derived files regenerated.");
