// The text check every argument passes (transport/graphql/safe-text.ts). Pure.
import { ValidationError } from "./errors.ts";

// NUL cannot be stored by PostgreSQL (and SQLite would keep it, so the providers would differ);
// a lone UTF-16 surrogate is not text at all and would be silently replaced on the way to UTF-8.
// eslint-disable-next-line no-control-regex
const unsafeText = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const UNSAFE = "must not contain NUL or unpaired surrogate characters";
// Assigning a "__proto__" key to an object sets its prototype instead, so any copy of the value
// (validation, form mapping) would drop it silently; refused instead of kept half the time.
const PROTO_KEY = "__proto__";
const RESERVED = `must not use the key ${PROTO_KEY}`;

interface Unsafe {
  at: string;
  rule: string;
}

/**
 * Refuses NUL and lone surrogates anywhere in an input (strings and object keys, at any depth),
 * and the object key "__proto__".
 */
export function assertSafeText(value: unknown, field: string): void {
  const found = findUnsafeText(value, field);
  if (found !== null) throw new ValidationError(found.at, `${found.at}: ${found.rule}`);
}

function findUnsafeText(value: unknown, path: string): Unsafe | null {
  if (typeof value === "string") return unsafeText.test(value) ? { at: path, rule: UNSAFE } : null;
  if (typeof value !== "object" || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], `${path}.${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (!isPlainObject(value)) {
    // An uploaded file (or any other class instance) is not JSON: its enumerable internals (a
    // byte buffer, one entry per byte) would cost time and memory in proportion to the upload.
    // Only a file's own name and type are text a client chose.
    const { name, type } = value as { name?: unknown; type?: unknown };
    if (typeof name === "string" && unsafeText.test(name)) return { at: join(path, "name"), rule: UNSAFE };
    if (typeof type === "string" && unsafeText.test(type)) return { at: join(path, "type"), rule: UNSAFE };
    return null;
  }
  for (const key of Object.keys(value)) {
    const at = join(path, key);
    if (unsafeText.test(key)) return { at, rule: UNSAFE };
    if (key === PROTO_KEY) return { at, rule: RESERVED };
    const found = findUnsafeText((value as Record<string, unknown>)[key], at);
    if (found !== null) return found;
  }
  return null;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** Objects GraphQL coercion and JSON.parse make; not Dates, files or other class instances. */
function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
