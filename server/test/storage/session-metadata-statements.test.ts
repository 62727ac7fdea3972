// The session-metadata command keeps its two statements as text so that a per-turn command loads
// no query builder. They must be what the one builder (storage/sql/sql.ts) makes of them.
import { describe, expect, it } from "vitest";
import { HAS_SESSION_TABLE, labelQuery } from "../../src/storage/sessions/session-metadata-reader.ts";
import { sql, sqlFor } from "../../src/storage/sql/sql.ts";

const COLUMNS = ["label", "completionId", "sourceGeneration", "labelGeneration", "namingFingerprint"] as const;

describe("the session-metadata reader's statements", () => {
  for (const provider of ["sqlite", "postgresql"] as const) {
    it(`are the builder's label query on ${provider}`, () => {
      const built = sqlFor(provider).selectFrom("Session").select(COLUMNS).where("harness", "=", "pi").where("nativeSessionId", "=", "s1").compile();
      const kept = labelQuery(provider, "pi", "s1");
      expect([kept.sql, kept.parameters]).toEqual([built.sql, built.parameters]);
    });
  }

  it("are the builder's catalogue check on SQLite", () => {
    const built = sqlFor("sqlite")
      .withTables<{ sqlite_master: { type: string; name: string } }>()
      .selectFrom("sqlite_master")
      .select(sql.lit(1).as("found"))
      .where("type", "=", "table")
      .where("name", "=", "Session")
      .compile();
    expect([HAS_SESSION_TABLE.sql, HAS_SESSION_TABLE.parameters]).toEqual([built.sql, built.parameters]);
  });
});
