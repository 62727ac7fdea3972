// A real `herald serve` for the Pi and opencode adapter tests: its own SQLite store, a person, a
// plugin-bound producer key, and an OpenAI-compatible labeler (the fake chat server) so sessions
// get a label the test chooses. Also a fast `herald session-metadata` for the Pi label consumer.
import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { createTempDir, createTempSqlite, heraldCli, spawnHerald, type SpawnedHerald, type TempSqlite } from "@herald/testkit";
import { type FakeOpenAIChat, startFakeOpenAIChat } from "../fakes/openai-chat.ts";

export const LABEL = "Fix Login Redirect";
/** A suite's set-up: starting Herald and a harness beside other suites on two loaded cores. */
export const SETUP_TIMEOUT_MS = 300_000;
/** One harness run (opencode took over two minutes for one turn with the machine's load at 30). */
export const HARNESS_TEST_TIMEOUT_MS = 300_000;

export interface AdapterHerald {
  herald: SpawnedHerald;
  store: TempSqlite;
  labeler: FakeOpenAIChat;
  person: { id: string; token: string };
  /** A producer key for the adapter. */
  key: string;
  /** The environment an adapter needs: HERALD_URL, HERALD_PRODUCER_KEY, HERALD_PERSON_ID. */
  adapterEnv: Record<string, string>;
  graphql<T = any>(token: string, query: string, variables?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

export async function startAdapterHerald(plugin: string): Promise<AdapterHerald> {
  const store = createTempSqlite("herald-adapters-");
  // The labeler names every session LABEL; a real model would read the exchange.
  const labeler = await startFakeOpenAIChat(() => ({ text: LABEL }));
  const env = { DATABASE_URL: store.url, HERALD_LABELER_URL: labeler.baseUrl, HERALD_LABELER_TIMEOUT_MS: "20000" };
  // A loaded machine (the harness tests run beside others) can take over a minute to start a server.
  const herald = await spawnHerald({ env, startTimeoutMs: 240_000 });
  const cli = heraldCli({ DATABASE_URL: store.url });
  const person = await cli.createPerson("Ada");
  // A plugin-bound key (`--plugin`) once the CLI has it; an admin key until then.
  const key = await cli.createProducerKey(`${plugin} adapter`);
  const graphql = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(herald.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: unknown; errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data as any;
  };
  return {
    herald,
    store,
    labeler,
    person,
    key,
    adapterEnv: { HERALD_URL: herald.origin, HERALD_PRODUCER_KEY: key, HERALD_PERSON_ID: person.id },
    graphql,
    async close() {
      await herald.stop();
      await labeler.close();
      store.remove();
    },
  };
}

export const SESSION_QUERY = `query($h: String!, $s: String!) { session(harness: $h, sessionId: $s) { id label completionId sourceGeneration labelGeneration } }`;
export const INBOX_QUERY = `{ notifications(first: 20) { totalCount edges { node { id key revision scope sessionId title body source { plugin subsystem } trigger { ref } } } } }`;

export interface MetadataBin {
  /** An executable that answers like `herald session-metadata` (HERALD_BIN for the Pi extension). */
  path: string;
  remove(): void;
}

/**
 * The unchanged `herald session-metadata` command (server/src/cli/session-metadata.ts), bundled
 * to plain JavaScript. The checked-out `herald` runs TypeScript through tsx, which takes 2.5-4 s
 * to start on a loaded two-core machine: past the consumer's 2 s bound for one read. Installed
 * builds run compiled code; so does this.
 */
export async function bundledMetadataCommand(): Promise<MetadataBin> {
  // Inside the repository, so the bundle's packages (better-sqlite3, pg) resolve from node_modules.
  const dir = createTempDir("herald-metadata-bin-");
  const workspaceDir = join(import.meta.dirname, "..", "..", "test-results");
  const bundle = join(workspaceDir, `session-metadata-${process.pid}.mjs`);
  await build({
    entryPoints: [join(import.meta.dirname, "..", "..", "..", "server", "src", "cli", "session-metadata.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outfile: bundle,
    logLevel: "warning",
  });
  const path = join(dir.path, "herald");
  writeFileSync(path, `#!/bin/sh\nexec "${process.execPath}" "${bundle}" "$@"\n`);
  chmodSync(path, 0o755);
  return {
    path,
    remove() {
      dir.remove();
      rmSync(bundle, { force: true });
    },
  };
}
