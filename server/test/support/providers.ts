// The storage providers every API test runs against. SQLite always; PostgreSQL when it answers,
// and mandatory in CI (CI=true), where its absence is a failure rather than a skip.
import { createTempSqlite } from "@herald/testkit";
import pg from "pg";

export const postgresBaseUrl = process.env.HERALD_TEST_POSTGRES_URL ?? "postgresql://root@127.0.0.1:5432/test";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface ProviderCase {
  name: "sqlite" | "postgresql";
  available: boolean;
  createDatabase(): Promise<TestDatabase>;
}

async function postgresAnswers(): Promise<string | null> {
  const client = new pg.Client({ connectionString: postgresBaseUrl, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const sqlite: ProviderCase = {
  name: "sqlite",
  available: true,
  async createDatabase() {
    const store = createTempSqlite("herald-test-");
    return { url: store.url, drop: async () => store.remove() };
  },
};

async function postgres(): Promise<ProviderCase> {
  const problem = await postgresAnswers();
  if (problem && process.env.CI === "true") {
    throw new Error(`PostgreSQL is required in CI but ${postgresBaseUrl} did not answer: ${problem}`);
  }
  if (problem) console.warn(`[herald tests] skipping PostgreSQL: ${postgresBaseUrl} did not answer (${problem})`);
  return {
    name: "postgresql",
    available: problem === null,
    async createDatabase() {
      const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
      const admin = new pg.Client({ connectionString: postgresBaseUrl });
      await admin.connect();
      await admin.query(`create schema "${schema}"`);
      await admin.end();
      const url = new URL(postgresBaseUrl);
      url.searchParams.set("schema", schema);
      return {
        url: url.toString(),
        async drop() {
          const c = new pg.Client({ connectionString: postgresBaseUrl });
          await c.connect();
          await c.query(`drop schema if exists "${schema}" cascade`);
          await c.end();
        },
      };
    },
  };
}

export const providers: ProviderCase[] = [sqlite, await postgres()];

export const redisBaseUrl = process.env.HERALD_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

async function redisAnswers(): Promise<string | null> {
  const { Redis } = await import("ioredis");
  const client = new Redis(redisBaseUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    client.disconnect();
  }
}

/** Redis for the PostgreSQL runs (production pairs them); mandatory in CI like PostgreSQL. */
export const redisUrl: string | null = await (async () => {
  const problem = await redisAnswers();
  if (problem && process.env.CI === "true") throw new Error(`Redis is required in CI but ${redisBaseUrl} did not answer: ${problem}`);
  if (problem) console.warn(`[herald tests] PostgreSQL runs use the in-memory bus: ${redisBaseUrl} did not answer (${problem})`);
  return problem ? null : redisBaseUrl;
})();
