// A shaped statement is compiled once per shape and bound to each call's values: the same shape
// with other values binds those values, and what a builder can tell of the values (which are
// null, how long an array is) gets a compile of its own, so a cached text never answers another
// call's question. The list statements' part of this (an empty id after a null one and the other
// way round) is test/api/empty-id-filters.test.ts.
import { describe, expect, it } from "vitest";
import { carryingStatement, Slot, shapedStatement, type Slots, Whole } from "../../src/storage/sql/shaped.ts";
import { sql, sqlFor, storedTime } from "../../src/storage/sql/sql.ts";
import type { Provider } from "../../src/storage/connection/database-url.ts";

interface Values {
  personId: string;
  sessionId: string | null;
  plugins: readonly string[] | null;
  since: Date;
}

function counted() {
  const seen: unknown[] = [];
  const statement = shapedStatement<{ unread: boolean }, Values>((provider, shape, v) => {
    seen.push(v);
    let query = sqlFor(provider)
      .selectFrom("Notification")
      .select("id")
      .where("personId", "=", v.personId)
      .where("createdAt", ">", storedTime(provider, v.since));
    if (v.sessionId) query = query.where("sessionId", "=", v.sessionId);
    if (v.plugins) query = query.where("sourcePlugin", "in", v.plugins);
    if (shape.unread) query = query.where("readAt", "is", null);
    return query;
  });
  return { statement, builds: () => seen.length, seen };
}

const since = new Date("2026-12-01T10:00:00.000Z");

describe("a shaped statement", () => {
  it("binds each call's own values into the text its shape compiled once", () => {
    const { statement, builds } = counted();
    const a = statement("sqlite", { unread: true }, { personId: "p1", sessionId: "s1", plugins: ["ci", "cd"], since })!.compile();
    const b = statement("sqlite", { unread: true }, { personId: "p2", sessionId: "s2", plugins: ["x", "y"], since: new Date(0) })!.compile();
    expect(builds()).toBe(1);
    expect(b.sql).toBe(a.sql);
    expect(a.parameters).toEqual(["p1", "2026-12-01T10:00:00.000+00:00", "s1", "ci", "cd"]);
    expect(b.parameters).toEqual(["p2", "1970-01-01T00:00:00.000+00:00", "s2", "x", "y"]);
  });

  it("compiles again for what the builder can tell apart: the shape, a null value, an array's length, the provider", () => {
    const { statement, builds } = counted();
    const base = { personId: "p", sessionId: "s", plugins: ["ci"], since };
    const texts = [
      statement("sqlite", { unread: true }, base),
      statement("sqlite", { unread: false }, base),
      statement("sqlite", { unread: true }, { ...base, sessionId: null }),
      statement("sqlite", { unread: true }, { ...base, plugins: ["ci", "cd"] }),
      statement("sqlite", { unread: true }, { ...base, plugins: null }),
      statement("postgresql", { unread: true }, base),
    ].map((run) => run!.compile().sql);
    expect(builds()).toBe(6);
    expect(new Set(texts).size).toBe(6);
    expect(texts[2]).not.toContain("sessionId");
    expect(texts[3]).toContain('"sourcePlugin" in (?, ?)');
    expect(texts[5]).toContain("CAST($2 AS timestamp(3))");
    // A null value after a set one, and the other way round: each binds its own.
    const again = statement("sqlite", { unread: true }, { ...base, sessionId: null })!.compile();
    expect(again.sql).toBe(texts[2]);
    expect(again.parameters).not.toContain("s");
    expect(builds()).toBe(6);
  });

  it("shows a builder no value: a slot holds only its place", () => {
    const { statement, seen } = counted();
    statement("sqlite", { unread: false }, { personId: "secret-person", sessionId: "secret-session", plugins: ["secret-plugin"], since });
    const slots = seen[0] as Record<string, unknown>;
    expect(slots.personId).toBeInstanceOf(Slot);
    expect(JSON.stringify(slots)).not.toContain("secret");
    expect(Object.keys(slots.personId as object)).toEqual([]);
  });

  it("leaves values that are part of the shape in the text's parameters, and raw SQL binds a slot as a parameter", () => {
    const statement = shapedStatement<{ status: string }, { id: string }>((provider, shape, v) =>
      sqlFor(provider)
        .selectFrom("Notification")
        .select("id")
        .where("status", "=", shape.status)
        .where(sql<boolean>`${v.id} = "id"`),
    );
    const run = statement("sqlite", { status: "PENDING" }, { id: "n1" })!.compile();
    expect(run.parameters).toEqual(["PENDING", "n1"]);
    expect(statement("sqlite", { status: "SEEN" }, { id: "n2" })!.compile().parameters).toEqual(["SEEN", "n2"]);
  });

  describe("carried inside another statement (carryingStatement)", () => {
    type Update = ReturnType<typeof updateOf>;
    const updateOf = (provider: Provider, v: Slots<{ title: string; id: string }>) =>
      sqlFor(provider).updateTable("Notification").set({ title: v.title }).where("id", "=", v.id);
    const update = shapedStatement<null, { title: string; id: string }, Update>((provider, _shape, v) => updateOf(provider, v));
    const plain = (title: string, id: string) => updateOf("postgresql", { title, id } as never);
    /** WITH one statement per carried run, then the carrying statement's own value. */
    function carrying() {
      let builds = 0;
      const statement = carryingStatement<null, { outer: string }, Update>((provider, _shape, v, carried) => {
        builds++;
        const withs = carried.map((query, i) => sql`${sql.id(`w${i}`)} AS (${query.returning(sql.lit(1).as("one"))})`);
        const built = sql`WITH ${sql.join(withs)} SELECT ${v.outer} AS o`;
        return { compile: () => built.compile(sqlFor(provider)) };
      });
      return { statement, builds: () => builds };
    }

    it("is compiled once per shape of what it carries, and binds each call's values, its own and the carried runs'", () => {
      const { statement, builds } = carrying();
      const first = statement("postgresql", null, { outer: "o1" }, [update("postgresql", null, { title: "New", id: "n1" })!]).compile();
      expect(first.sql).toBe('WITH "w0" AS (update "Notification" set "title" = $1 where "id" = $2 returning 1 as "one") SELECT $3 AS o');
      expect(first.parameters).toEqual(["New", "n1", "o1"]);
      const second = statement("postgresql", null, { outer: "o2" }, [update("postgresql", null, { title: "Other", id: "n2" })!]).compile();
      expect(second).toEqual({ sql: first.sql, parameters: ["Other", "n2", "o2"] });
      expect(builds()).toBe(1);
    });

    it("binds each of two carried runs of one statement to its own values", () => {
      const { statement, builds } = carrying();
      const runs = (a: string, b: string) => [
        update("postgresql", null, { title: a, id: a.toLowerCase() })!,
        update("postgresql", null, { title: b, id: b.toLowerCase() })!,
      ];
      expect(statement("postgresql", null, { outer: "o" }, runs("A", "B")).compile().parameters).toEqual(["A", "a", "B", "b", "o"]);
      expect(statement("postgresql", null, { outer: "p" }, runs("C", "D")).compile().parameters).toEqual(["C", "c", "D", "d", "p"]);
      expect(builds()).toBe(1);
    });

    it("is compiled at every call when it carries a plain builder, whose values are in its text's parameters", () => {
      const { statement, builds } = carrying();
      expect(statement("postgresql", null, { outer: "o" }, [plain("A", "a")]).compile().parameters).toEqual(["A", "a", "o"]);
      expect(statement("postgresql", null, { outer: "p" }, [plain("B", "b")]).compile().parameters).toEqual(["B", "b", "p"]);
      expect(builds()).toBe(2);
    });

    it("binds a Whole array as one parameter", () => {
      const statement = carryingStatement<null, { ids: Whole<string[]> }, Update>((provider, _shape, v) => {
        const built = sql`SELECT * FROM unnest(CAST(${v.ids} AS text[]))`;
        return { compile: () => built.compile(sqlFor(provider)) };
      });
      expect(statement("postgresql", null, { ids: new Whole(["a", "b"]) }, []).compile()).toEqual({
        sql: "SELECT * FROM unnest(CAST($1 AS text[]))",
        parameters: [["a", "b"]],
      });
      expect(statement("postgresql", null, { ids: new Whole(["c"]) }, []).compile().parameters).toEqual([["c"]]);
    });
  });
});
