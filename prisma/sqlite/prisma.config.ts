// Prisma CLI configuration for the embedded SQLite store (`npm run migration:new`, the drift check
// of `npm run generate`, and applying migrations with the CLI). It selects Prisma's JavaScript
// schema engine driven through the better-sqlite3 adapter (`engine: "js"`, `adapter`) instead of
// Prisma's native schema engine: the native engine is a binary the CLI downloads from Prisma's
// servers on first use, and Herald's development and CI machines may have no access to them, while
// better-sqlite3 is already installed from npm for the server itself.
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
