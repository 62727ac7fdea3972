// Prisma CLI configuration for the embedded SQLite store: the JS schema engine with a driver
// adapter, because the native engines cannot be downloaded here (shared notes, stack.md).
import { defineConfig } from "prisma/config";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "./schema.prisma",
  migrations: { path: "./migrations" },
  async adapter() {
    const { PrismaBetterSQLite3 } = await import("@prisma/adapter-better-sqlite3");
    return new PrismaBetterSQLite3({ url: process.env.DATABASE_URL ?? "file:./data/herald.db" });
  },
});
