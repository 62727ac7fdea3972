// Builds a statement once per shape instead of once per call. Building and compiling the list
// statement with the builder cost about ten times what splicing strings did (hundreds of µs per
// list under load); its text depends only on the shape of its input (which filters are set, how
// many plugins are named, whether there is a cursor), and its values on the rest.
//
// The statement is still written once, with the builder (notification-page-sql.ts). For a new
// shape it is built twice: with the real input, which is what runs, and with every slotted value
// replaced by a sentinel of its kind. The sentinel build's parameters then tell which parameter
// comes from which slot; every other parameter is a constant of the shape. A later call of the
// same shape takes the cached text and fills the parameters from its own slots, without the
// builder. Where the two builds' text differ (a slotted value changed the structure after all), the
// shape is not cached and every call builds, so a wrong shape costs speed, never correctness.
import { isDeepStrictEqual } from "node:util";
import type { Compilable } from "kysely";
import { LRUCache } from "lru-cache";
import type { Provider } from "./database-url.ts";
import { timeParameter } from "./sql.ts";

/** A value a statement binds, by slot: a string, a number or a time. */
export type SlotValue = string | number | Date;

export interface Compiled {
  sql: string;
  parameters: readonly unknown[];
}

export interface TemplateSpec<Input> {
  /** What decides the statement's text: equal shapes must build equal text. */
  shape(input: Input): string;
  /** The input's slotted values, by name (every call of a shape names the same slots). */
  slots(input: Input): ReadonlyMap<string, SlotValue>;
  /** The input with its slotted values replaced. */
  withSlots(input: Input, values: ReadonlyMap<string, SlotValue>): Input;
  build(input: Input): Compilable | null;
}

type Recipe = ((slots: ReadonlyMap<string, SlotValue>) => unknown)[];

/** A shape's text and how to fill it; no recipe: the shape is built on every call. */
interface Template {
  sql: string;
  recipe: Recipe | null;
}

/** Shapes kept (least recently used dropped first); a dashboard uses a handful. */
const MAX_SHAPES = 256;

export class StatementTemplates<Input> {
  private readonly templates = new LRUCache<string, Template>({ max: MAX_SHAPES });

  constructor(
    private readonly provider: Provider,
    private readonly spec: TemplateSpec<Input>,
  ) {}

  /** How many shapes are kept as text to fill (not those that build every call). */
  get kept(): number {
    let n = 0;
    for (const template of this.templates.values()) if (template.recipe) n++;
    return n;
  }

  /** The statement for `input` as text and values; null where the builder returns none. */
  compile(input: Input): Compiled | null {
    const shape = this.spec.shape(input);
    const template = this.templates.get(shape);
    if (template?.recipe) {
      const slots = this.spec.slots(input);
      return { sql: template.sql, parameters: template.recipe.map((fill) => fill(slots)) };
    }
    const statement = this.spec.build(input);
    if (!statement) return null;
    const compiled = statement.compile();
    if (template === undefined) this.remember(shape, input, compiled.sql, compiled.parameters);
    return { sql: compiled.sql, parameters: compiled.parameters };
  }

  private remember(shape: string, input: Input, sql: string, real: readonly unknown[]): void {
    const slots = this.spec.slots(input);
    const { values, fills } = this.sentinels(slots);
    const probe = this.spec.build(this.spec.withSlots(input, values))?.compile();
    let recipe: Recipe | null = null;
    if (probe && probe.sql === sql && !probe.parameters.some((value) => !fills.has(value) && isSentinelLike(value))) {
      const filled: Recipe = probe.parameters.map((value) => fills.get(value) ?? (() => value));
      // The recipe must give back what the real build bound; else this shape is built every time.
      if (isDeepStrictEqual(filled.map((fill) => fill(slots)), [...real])) recipe = filled;
    }
    this.templates.set(shape, { sql, recipe });
  }

  /** A sentinel per slot, and how each sentinel's bound form is filled from a call's own slots. */
  private sentinels(slots: ReadonlyMap<string, SlotValue>) {
    const values = new Map<string, SlotValue>();
    const fills = new Map<unknown, (slots: ReadonlyMap<string, SlotValue>) => unknown>();
    let n = 0;
    for (const [name, value] of slots) {
      n++;
      if (typeof value === "string") {
        const sentinel = `\u0001slot ${n}\u0001`;
        values.set(name, sentinel);
        fills.set(sentinel, (call) => call.get(name));
      } else if (typeof value === "number") {
        // Far from any value a statement binds of itself (limits, offsets).
        const sentinel = 987_654_000 + n;
        values.set(name, sentinel);
        fills.set(sentinel, (call) => call.get(name));
      } else {
        const sentinel = new Date(Date.UTC(2999, 0, 1) + n);
        values.set(name, sentinel);
        fills.set(timeParameter(this.provider, sentinel), (call) => timeParameter(this.provider, call.get(name) as Date));
      }
    }
    return { values, fills };
  }
}

/** A bound value made from a sentinel rather than being one (a slot transformed on its way in): such a shape is not cached. */
function isSentinelLike(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0001slot ") || value.includes("2999-01-01");
  return typeof value === "number" && value > 987_000_000 && value < 988_000_000;
}
