// Names for PostgreSQL's prepared statements. An unnamed statement is parsed and planned on every
// run; a named one is parsed once per connection and its plan kept, which took PostgreSQL's CPU per
// publish from about 1.5 ms to about 0.9 ms (bench/history.md). Three rules keep that safe:
// - Bounded: the first MAX_NAMED distinct texts get a name and later ones run unnamed, so a
//   connection never holds more than MAX_NAMED statements, whatever shapes clients ask for.
// - Only texts with parameters: an unnamed text without any runs in the simple protocol, which
//   allows several commands in one text (a migration's file); a named text could not.
// - A schema change under a running server (another instance migrating) makes PostgreSQL refuse a
//   kept plan whose result columns changed ("cached plan must not change result type"). Then every
//   name is renewed (a new generation), so each connection parses again: the store runs the
//   statement again at once outside a transaction, and a transaction fails as retryable
//   (retrying-transaction.ts), since PostgreSQL already undid it.
import { createHash } from "node:crypto";

export const MAX_NAMED = 256;

export class StatementNames {
  #names = new Map<string, string>();
  #generation = 0;

  /** The name `sql` runs under, or undefined to run it unnamed. */
  nameFor(sql: string, parameterCount: number): string | undefined {
    if (parameterCount === 0) return undefined;
    const known = this.#names.get(sql);
    if (known !== undefined || this.#names.size >= MAX_NAMED) return known;
    // A digest, not a counter: the same text has the same name in every process and log.
    const name = `h${this.#generation}_${createHash("sha1").update(sql).digest("hex").slice(0, 24)}`;
    this.#names.set(sql, name);
    return name;
  }

  /** Every name is renewed: statements prepared under the old ones are parsed again. */
  renew(): void {
    this.#generation++;
    this.#names.clear();
  }

  get size(): number {
    return this.#names.size;
  }

  /** How many times the names were renewed. */
  get generation(): number {
    return this.#generation;
  }
}

/** PostgreSQL's refusal of a kept plan whose result columns a schema change altered (the statement did not run). */
export function isStalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "0A000" && typeof message === "string" && message.includes("cached plan must not change result type");
}
