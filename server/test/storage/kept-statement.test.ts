// Statements kept compiled once (queries.ts keptStatement): the text is the builder's, a call
// binds its own values, and a statement that binds anything but its placeholders is refused.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { keptStatement } from "../../src/storage/sql/queries.ts";
import { sqlFor } from "../../src/storage/sql/sql.ts";

describe("a kept statement", () => {
  it("is the builder's text in each dialect, compiled once", () => {
    let builds = 0;
    const byName = keptStatement((b, name: string, id: string) => {
      builds++;
      return b.selectFrom("Person").select("id").where("name", "=", name).where("id", "!=", id);
    }, "name?", "id?");
    for (const provider of ["sqlite", "postgresql"] as const) {
      const built = sqlFor(provider).selectFrom("Person").select("id").where("name", "=", "Ada").where("id", "!=", "x").compile();
      expect(byName.text(provider)).toBe(built.sql);
      expect(byName.text(provider)).toBe(built.sql);
    }
    expect(builds).toBe(2);
  });

  it("is refused at first use when it binds a constant or its placeholders out of order", () => {
    const limited = keptStatement((b, id: string) => b.selectFrom("Person").select("id").where("id", "=", id).limit(1), "");
    expect(() => limited.text("sqlite")).toThrow(/binds \["",1\], not its placeholders \[""\]/);
    const swapped = keptStatement((b, a: string, c: string) => b.selectFrom("Person").select("id").where("id", "=", c).where("name", "=", a), "a", "c");
    expect(() => swapped.text("postgresql")).toThrow(/binds \["c","a"\]/);
    const literal = keptStatement((b, id: string) => b.selectFrom("Person").select(sql.lit(1).as("found")).where("id", "=", id).limit(sql.lit(1)), "");
    expect(literal.text("sqlite")).toMatch(/limit 1$/);
  });
});
