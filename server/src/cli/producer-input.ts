// What a producer command sends: the whole input from `--json <file>` or `--json -` (stdin),
// with the command's flags laid over it.
import { readFile } from "node:fs/promises";
import { text } from "node:stream/consumers";
import { jsonProblem, ProducerFailure } from "./producer-client.ts";

type Json = Record<string, unknown>;

export async function readJsonInput(source: string | undefined): Promise<Json> {
  if (source === undefined) return {};
  let raw: string;
  try {
    raw = source === "-" ? await text(process.stdin) : await readFile(source, "utf8");
  } catch (error) {
    throw ProducerFailure.invalid("--json", `cannot read ${source === "-" ? "stdin" : source}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw ProducerFailure.invalid("--json", jsonProblem(error));
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw ProducerFailure.invalid("--json", "must be a JSON object");
  return parsed as Json;
}

/** A flag's JSON value (e.g. `--values '{"a":1}'`), refused with the flag's name when malformed. */
export function parseJsonFlag(flag: string, value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch (error) {
    throw ProducerFailure.invalid(flag, jsonProblem(error));
  }
}

/**
 * Lays flag values over the input at dotted paths ("source.plugin"); flags not given leave the
 * input as it is.
 */
export function withFlags(input: Json, flags: Record<string, unknown>): Json {
  const merged: Json = structuredClone(input);
  for (const [path, value] of Object.entries(flags)) {
    if (value === undefined) continue;
    const parts = path.split(".");
    let node = merged;
    for (const part of parts.slice(0, -1)) {
      const child = node[part];
      node = node[part] = typeof child === "object" && child !== null && !Array.isArray(child) ? (child as Json) : {};
    }
    node[parts.at(-1)!] = value;
  }
  return merged;
}

/** Refuses, naming the field, an input that lacks what the command cannot do without. */
export function requireFields(input: Json, paths: string[], hint: (path: string) => string): void {
  for (const path of paths) {
    const value = path.split(".").reduce<unknown>((node, part) => (node as Json | undefined)?.[part], input);
    if (value === undefined || value === null || value === "") throw ProducerFailure.invalid(path, `required (${hint(path)})`);
  }
}
