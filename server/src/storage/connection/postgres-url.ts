// Turns a PostgreSQL URL into node-postgres pool settings. A `?schema=` parameter (Prisma's
// convention) becomes the connection's search_path, which the driver adapters do not do.
import type { PoolConfig } from "pg";

export function postgresPoolConfig(url: string, extra: PoolConfig = {}): PoolConfig {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema");
  parsed.searchParams.delete("schema");
  if (schema !== null && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new Error("The schema parameter of DATABASE_URL must be a plain identifier");
  }
  return {
    connectionString: parsed.toString(),
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    // Idle pooled connections must not keep a finished CLI process alive.
    allowExitOnIdle: true,
    ...extra,
  };
}

export function postgresSchemaOf(url: string): string | undefined {
  return new URL(url).searchParams.get("schema") ?? undefined;
}
