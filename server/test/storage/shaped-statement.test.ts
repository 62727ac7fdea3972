// A shaped statement is compiled once per shape and bound to each call's values: the same shape
// with other values binds those values, and what a builder can tell of the values (which are
// null, how long an array is) gets a compile of its own, so a cached text never answers another
// call's question. The list statements' part of this (an empty id after a null one and the other
// way round) is test/api/empty-id-filters.test.ts.
import { describe, expect, it } from "vitest";
import { Slot, shapedStatement, type Slots } from "../../src/storage/sql/shaped.ts";
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

  it("gives its builder, slots and all, to a statement that carries it, and binds that statement's parameters", () => {
    const updateOf = (provider: Provider, v: Slots<{ title: string; id: string }>) =>
      sqlFor(provider).updateTable("Notification").set({ title: v.title }).where("id", "=", v.id);
    const update = shapedStatement<null, { title: string; id: string }, ReturnType<typeof updateOf>>((provider, _shape, v) => updateOf(provider, v));
    const run = update("postgresql", null, { title: "New", id: "n1" })!;
    const { query, bind } = run.built();
    const carried = sql`WITH written AS (${query.returning(sql.lit(1).as("one"))}) SELECT ${"outer"} AS o, count(*) FROM written`.compile(sqlFor("postgresql"));
    expect(carried.sql).toBe(
      'WITH written AS (update "Notification" set "title" = $1 where "id" = $2 returning 1 as "one") SELECT $3 AS o, count(*) FROM written',
    );
    expect(bind(carried.parameters)).toEqual(["New", "n1", "outer"]);
    expect(run.compile().parameters).toEqual(["New", "n1"]);
  });

  it("binds, in a statement that carries two of them, each one's slots to its own values", () => {
    const updateOf = (provider: Provider, v: Slots<{ title: string; id: string }>) =>
      sqlFor(provider).updateTable("Notification").set({ title: v.title }).where("id", "=", v.id);
    const update = shapedStatement<null, { title: string; id: string }, ReturnType<typeof updateOf>>((provider, _shape, v) => updateOf(provider, v));
    const a = update("postgresql", null, { title: "A", id: "a" })!.built();
    const b = update("postgresql", null, { title: "B", id: "b" })!.built();
    const both = sql`WITH x AS (${a.query.returning(sql.lit(1).as("one"))}), y AS (${b.query.returning(sql.lit(1).as("one"))}) SELECT 1`.compile(
      sqlFor("postgresql"),
    );
    expect([a, b].reduce<readonly unknown[]>((parameters, r) => r.bind(parameters), both.parameters)).toEqual(["A", "a", "B", "b"]);
  });
});
