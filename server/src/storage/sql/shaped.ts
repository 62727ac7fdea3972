// Statements compiled once per shape. Building and compiling a statement with Kysely costs about
// as much as SQLite takes to run a short one (a list page: about a tenth of the request's CPU), and
// the hot statements differ from call to call only in their values. A shaped statement's builder
// gets the shape (what decides the SQL text: plain data, part of the cache key) and, for each
// value, a slot: a placeholder it can put wherever a value goes but cannot read. Of the values it
// can tell only whether one is null and how long an array is, and both are in the key too. So the
// text is a function of the key alone, and a shape seen before can cost a compile but never give a
// statement that answers another question. A statement that carries shaped runs inside it
// (carryingStatement) is compiled once per its own key and theirs, each of its parameters bound
// from its own values or from the carried run its slot came from.
import { type Expression, type OperationNode, ValueNode } from "kysely";
import { LRUCache } from "lru-cache";
import type { Provider } from "../connection/database-url.ts";
import { timeParameter } from "./sql.ts";

/** A value's place in a statement: a Kysely expression of its type whose value is bound at each run. */
export class Slot<T> implements Expression<T> {
  readonly #key: string;
  readonly #index: number;

  constructor(key: string, index: number) {
    this.#key = key;
    this.#index = index;
  }

  get expressionType(): T | undefined {
    return undefined;
  }

  toOperationNode(): OperationNode {
    return ValueNode.create(this);
  }

  /** The value this slot stands for in `values`: a time as the store binds it. */
  bound(values: Readonly<Record<string, unknown>>, provider: Provider): unknown {
    const value = values[this.#key];
    const one = this.#index < 0 ? value : (value as readonly unknown[])[this.#index];
    if (one instanceof Whole) return one.value;
    return one instanceof Date ? timeParameter(provider, one) : one;
  }
}

type SlotOf<T> = T extends null | undefined ? null : T extends Whole<infer W> ? Slot<W> : T extends readonly (infer E)[] ? Slot<E>[] : Slot<T>;

/** What a builder sees of the values: a slot for each (an array of slots for an array), null for null. */
export type Slots<V> = { readonly [K in keyof V]-?: SlotOf<V[K]> };

/** What a statement compiles to: Kysely's builders, a shaped statement's run. */
export interface Runnable {
  compile(): { sql: string; parameters: readonly unknown[] };
}

export interface ShapedRun<Q extends Runnable = Runnable> extends Runnable {
  /** What its text is a function of: the statement, the provider, the shape and the values' outline. */
  readonly key: string;
  /** Its builder, built again with fresh slots (each one added to `made`): for a statement that carries it (carryingStatement). */
  rebuilt(made: Set<Slot<unknown>>): Q;
  /** The value one of those slots stands for in this run. */
  valueOf(slot: Slot<unknown>): unknown;
}

/** A value bound as one parameter although it is an array (PostgreSQL's `unnest` of a whole column). */
export class Whole<T> {
  constructor(readonly value: T) {}
}

/** Compiled shapes kept per statement; a shape is a filter's kinds and counts, so a handful serve a deployment. */
const MAX_SHAPES = 256;
let statements = 0;

/**
 * A statement built by `build` from a shape and slots, compiled once per (provider, shape, which
 * values are null, array lengths). `build` must depend on nothing but its arguments: the shape it
 * is given is the whole of what may change its SQL.
 */
export function shapedStatement<S, V extends object, Q extends Runnable = Runnable>(
  build: (provider: Provider, shape: S, slots: Slots<V>) => Q | null,
): (provider: Provider, shape: S, values: V) => ShapedRun<Q> | null {
  const compiled = new LRUCache<string, { sql: string; parameters: readonly unknown[] } | "none">({ max: MAX_SHAPES });
  const id = ++statements;
  return (provider, shape, values) => {
    const key = `${id}|${provider}|${JSON.stringify(shape)}|${outline(values as Record<string, unknown>)}`;
    let statement = compiled.get(key);
    if (statement === undefined) {
      const built = build(provider, shape, slotsFor(values as Record<string, unknown>) as Slots<V>);
      statement = built ? built.compile() : "none";
      compiled.set(key, statement);
    }
    if (statement === "none") return null;
    const { sql, parameters } = statement;
    const given = values as Record<string, unknown>;
    return {
      key,
      compile: () => ({ sql, parameters: parameters.map((parameter) => (parameter instanceof Slot ? parameter.bound(given, provider) : parameter)) }),
      rebuilt: (made) => build(provider, shape, slotsFor(given, made) as Slots<V>)!,
      valueOf: (slot) => slot.bound(given, provider),
    };
  };
}

/** Where a carrying statement's parameter comes from: its own values, a carried run's, or the text itself. */
type Source = { from: "own"; slot: Slot<unknown> } | { from: number; slot: Slot<unknown> } | { from: "text"; value: unknown };

/**
 * A statement that carries others inside it (on PostgreSQL a change's writes ride in the statement
 * that appends its events), built by `build` from its shape, slots for its own values, and the
 * builders of what it carries. Compiled once per (provider, shape, outline, the keys of the runs it
 * carries) when all it carries are shaped; a plain builder among them makes it compile at every
 * call, since its values are in its text's parameters.
 */
export function carryingStatement<S, V extends object, C extends Runnable, Q extends Runnable = Runnable>(
  build: (provider: Provider, shape: S, slots: Slots<V>, carried: readonly C[]) => Q,
): (provider: Provider, shape: S, values: V, carried: readonly (C | ShapedRun<C>)[]) => Runnable {
  const compiled = new LRUCache<string, { sql: string; sources: Source[] }>({ max: MAX_SHAPES });
  const id = ++statements;
  const compileOnce = (provider: Provider, shape: S, values: V, carried: readonly (C | ShapedRun<C>)[]) => {
    const own = new Set<Slot<unknown>>();
    const made = carried.map(() => new Set<Slot<unknown>>());
    const queries = carried.map((c, i) => (isShapedRun(c) ? c.rebuilt(made[i]!) : c));
    const { sql, parameters } = build(provider, shape, slotsFor(values as Record<string, unknown>, own) as Slots<V>, queries).compile();
    const sources = parameters.map((parameter): Source => {
      if (!(parameter instanceof Slot)) return { from: "text", value: parameter };
      if (own.has(parameter)) return { from: "own", slot: parameter };
      return { from: made.findIndex((slots) => slots.has(parameter)), slot: parameter };
    });
    return { sql, sources };
  };
  return (provider, shape, values, carried) => {
    const key = carried.every(isShapedRun)
      ? `${id}|${provider}|${JSON.stringify(shape)}|${outline(values as Record<string, unknown>)}|${carried.map((c) => (c as ShapedRun).key).join("|")}`
      : null;
    let statement = key === null ? undefined : compiled.get(key);
    if (statement === undefined) {
      statement = compileOnce(provider, shape, values, carried);
      if (key !== null) compiled.set(key, statement);
    }
    const { sql, sources } = statement;
    const given = values as Record<string, unknown>;
    return {
      compile: () => ({
        sql,
        parameters: sources.map((source) =>
          source.from === "text"
            ? source.value
            : source.from === "own"
              ? source.slot.bound(given, provider)
              : (carried[source.from] as ShapedRun).valueOf(source.slot),
        ),
      }),
    };
  };
}

function isShapedRun(query: Runnable): query is ShapedRun {
  return "rebuilt" in query;
}

/** What a builder can tell of the values, as text: each one's key, and "-" for null or an array's length. */
function outline(values: Readonly<Record<string, unknown>>): string {
  let text = "";
  for (const key in values) {
    const value = values[key];
    text += `${key}:${value === null || value === undefined ? "-" : Array.isArray(value) ? value.length : "v"};`;
  }
  return text;
}

function slotsFor(values: Readonly<Record<string, unknown>>, made?: Set<Slot<unknown>>): Record<string, unknown> {
  const slotOf = (key: string, index: number) => {
    const slot = new Slot(key, index);
    made?.add(slot);
    return slot;
  };
  const slots: Record<string, unknown> = {};
  for (const key in values) {
    const value = values[key];
    slots[key] = value === null || value === undefined ? null : Array.isArray(value) ? value.map((_, i) => slotOf(key, i)) : slotOf(key, -1);
  }
  return slots;
}
