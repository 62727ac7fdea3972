// Prisma CLI configuration for PostgreSQL. `migrate deploy` runs through adapter-pg 7.x
// (installed under the alias pg-adapter-migrate) because 6.19's adapter fails to read the
// migrations table there (adapter-pg 6.19 cannot deserialize PostgreSQL's `name` column type); the runtime client keeps adapter-pg 6.19.3.
import { defineConfig } from "prisma/config";
import { postgresPoolConfig, postgresSchemaOf } from "../../server/src/storage/connection/postgres-url.ts";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "./schema.prisma",
  migrations: { path: "./migrations" },
  async adapter() {
    const { PrismaPg } = await import("pg-adapter-migrate");
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL must be set to migrate PostgreSQL");
    return new PrismaPg(postgresPoolConfig(connectionString, { idleTimeoutMillis: 100 }), { schema: postgresSchemaOf(connectionString) });
  },
});
