// A real `herald serve` for the Pi and opencode adapter tests: its own SQLite store, a person, a
// plugin-bound producer key, and an OpenAI-compatible labeler (the fake chat server) so sessions
// get a label the test chooses.
import { createTempSqlite, heraldBin, heraldCli, spawnHerald, type SpawnedHerald, type TempSqlite } from "@herald/testkit";
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
  // A plugin-bound key, as the README tells users to give an adapter.
  const key = await cli.createProducerKey(`${plugin} adapter`, plugin);
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

/** The real `herald` launcher (compiled), which the Pi extension runs as HERALD_BIN for its metadata reads. */
export const metadataCommand = heraldBin;
