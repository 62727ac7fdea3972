import js from "@eslint/js";
import tseslint from "typescript-eslint";

const src = "server/src";
const ioModules = [
  "node:fs",
  "node:fs/promises",
  "node:net",
  "node:http",
  "node:child_process",
  "node:worker_threads",
  "pg",
  "@photostructure/sqlite",
  "better-sqlite3",
  "ioredis",
  "@prisma/*",
  "kysely",
  "pino",
];
/** Folders (or files) of server/src that a layer may not import from. */
const forbidden = {
  domain: ["config.ts", "logger.ts", "storage", "events", "service", "realtime", "transport", "background", "cli", "app.ts", "services.ts"],
  storage: ["service", "realtime", "transport", "background", "cli", "app.ts", "services.ts"],
  events: ["storage", "service", "realtime", "transport", "background", "cli", "app.ts", "services.ts"],
  service: ["realtime", "transport", "background", "cli", "app.ts"],
  realtime: ["storage", "transport", "background", "cli", "app.ts", "services.ts"],
  transport: ["storage", "background", "cli", "app.ts"],
  background: ["storage", "transport", "cli", "app.ts"],
  util: ["storage", "events", "service", "realtime", "transport", "background", "cli", "app.ts", "services.ts"],
};
/** Peers whose types (never values) a layer may use. */
const typeOnly = { storage: ["events"], realtime: ["storage"], transport: ["events", "storage"], background: ["storage"] };

function layerRules() {
  return Object.entries(forbidden).map(([layer, targets]) => {
    const peers = typeOnly[layer] ?? [];
    const patterns = targets
      .filter((target) => !peers.includes(target))
      .map((target) => ({
        group: [`**/${target}`, `**/${target}/**`].filter((g) => !g.endsWith(".ts/**")),
        message: `${layer}/ may not import ${target}: see "Layers" in docs/decisions.md.`,
      }));
    for (const peer of peers) {
      patterns.push({ group: [`**/${peer}/**`], allowTypeImports: true, message: `${layer}/ may use only types of ${peer}/.` });
    }
    if (layer === "domain") patterns.push({ group: ioModules, message: "domain/ is rules without I/O." });
    return {
      files: [`${src}/${layer}/**/*.ts`],
      // A worker thread's entry point is a composition root of its own.
      ignores: [`${src}/background/scanner/selection-worker.ts`],
      rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns }] },
    };
  });
}

/** Outsiders (the other workspaces) and the server's black-box suites use only the server's public modules. */
function publicModuleRules() {
  const why = 'see "Public modules" in docs/decisions.md';
  const only = (files, regex, message) => ({
    files,
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [{ regex, message: `${message}; ${why}.` }] }] },
  });
  return [
    only(
      ["bench/**/*.ts", "testkit/**/*.ts", "integrations/**/*.ts", "app/**/*.ts", "sdk/**/*.ts"],
      "^(\\.\\./)+server/(src|bin)(/|$)",
      "Import the server through the exports of its package.json (@herald/server/...), not its files",
    ),
    only(
      ["server/test/*.ts", "server/test/api/**/*.ts", "server/test/security/**/*.ts", "server/test/operations/**/*.ts", "server/test/support/**/*.ts"],
      "^(\\.\\./)+src(/|$)",
      "A suite that talks to a running server imports it only through @herald/server/... (its package.json exports)",
    ),
  ];
}

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/generated/**", "**/dist/**", "**/build/**", "**/.svelte-kit/**", "data/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", Buffer: "readonly", URL: "readonly", fetch: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // The server's layers, each using only what is below it (docs/decisions.md, "Layers"):
  // composition root (app.ts, cli/, a worker's entry) -> transport and background -> realtime (the
  // delivery path, server/src/realtime/README.md) -> service -> events and storage -> domain and
  // config. Type-only imports between the peers events and storage are allowed (storage implements
  // the event log's reader and appends committed events), and realtime may use storage's types.
  // util/ holds helpers any layer may use (the HTTP refusals transport and realtime both answer
  // with, among them); it uses nothing of the layers.
  ...layerRules(),
  ...publicModuleRules(),
  {
    // One module loads the SQLite driver and makes up for what it lacks (its top comment says what).
    files: ["server/src/**/*.ts"],
    ignores: ["server/src/storage/connection/sqlite-driver.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "@photostructure/sqlite", message: "Reach SQLite through storage/connection/sqlite-driver.ts." },
            { name: "better-sqlite3", message: "Herald's SQLite driver is storage/connection/sqlite-driver.ts; better-sqlite3 is a development tool." },
          ],
        },
      ],
    },
  },
  {
    // Tests read loosely typed GraphQL responses on purpose: they assert on the wire format.
    files: ["**/test/**/*.ts", "**/bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
);
