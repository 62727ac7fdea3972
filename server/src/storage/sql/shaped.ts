// Statements compiled once per shape. Building and compiling a statement with Kysely costs about
// as much as SQLite takes to run a short one (a list page: about a tenth of the request's CPU), and
// the hot statements differ from call to call only in their values. A shaped statement's builder
// gets the shape (what decides the SQL text: plain data, part of the cache key) and, for each
// value, a slot: a placeholder it can put wherever a value goes but cannot read. Of the values it
// can tell only whether one is null and how long an array is, and both are in the key too. So the
// text is a function of the key alone, and a shape seen before can cost a compile but never give a
// statement that answers another question.
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
    return one instanceof Date ? timeParameter(provider, one) : one;
  }
}

type SlotOf<T> = T extends null | undefined ? null : T extends readonly (infer E)[] ? Slot<E>[] : Slot<T>;

/** What a builder sees of the values: a slot for each (an array of slots for an array), null for null. */
export type Slots<V> = { readonly [K in keyof V]-?: SlotOf<V[K]> };

/** What a statement compiles to: Kysely's builders, a shaped statement's run. */
export interface Runnable {
  compile(): { sql: string; parameters: readonly unknown[] };
}

export interface ShapedRun<Q extends Runnable = Runnable> extends Runnable {
  /**
   * The statement as its builder builds it, its values still slots, built again (not kept), and
   * `bind`, which fills them into any statement compiled with it inside (PostgreSQL's appendEvents
   * carries a unit's last write in its own statement).
   */
  built(): { query: Q; bind(parameters: readonly unknown[]): unknown[] };
}

/** Compiled shapes kept per statement; a shape is a filter's kinds and counts, so a handful serve a deployment. */
const MAX_SHAPES = 256;

/**
 * A statement built by `build` from a shape and slots, compiled once per (provider, shape, which
 * values are null, array lengths). `build` must depend on nothing but its arguments: the shape it
 * is given is the whole of what may change its SQL.
 */
export function shapedStatement<S, V extends object, Q extends Runnable = Runnable>(
  build: (provider: Provider, shape: S, slots: Slots<V>) => Q | null,
): (provider: Provider, shape: S, values: V) => ShapedRun<Q> | null {
  const compiled = new LRUCache<string, { sql: string; parameters: readonly unknown[] } | "none">({ max: MAX_SHAPES });
  return (provider, shape, values) => {
    const key = `${provider}|${JSON.stringify(shape)}|${outline(values as Record<string, unknown>)}`;
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
      compile: () => ({ sql, parameters: parameters.map((parameter) => (parameter instanceof Slot ? parameter.bound(given, provider) : parameter)) }),
      built: () => {
        // Only this build's own slots: the statement that carries it may carry other shaped ones.
        const own = new Set<Slot<unknown>>();
        const query = build(provider, shape, slotsFor(given, own) as Slots<V>)!;
        const bind = (compiled: readonly unknown[]) =>
          compiled.map((parameter) => (parameter instanceof Slot && own.has(parameter) ? parameter.bound(given, provider) : parameter));
        return { query, bind };
      },
    };
  };
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
