// Seeded generator of hostile GraphQL requests built from the real schema: valid-looking
// operations with random (often wrong or nasty) arguments, then random mutations of their text.
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
} from "graphql";

/** mulberry32: small, fast and reproducible from its seed. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}

export type Random = ReturnType<typeof seededRandom>;

const nastyStrings = [
  "",
  " ",
  "a",
  "Ada",
  "x".repeat(300),
  "x".repeat(20_000),
  "\u0000",
  "a\u0000b",
  "\uD800",
  "\uDFFF tail",
  "\uD83D\uDE00",
  '\'; drop table "Person"; --',
  "../../etc/passwd",
  "http://127.0.0.1:1/",
  "javascript:alert(1)",
  "e1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  "herald_pt_x",
  "cmx00000000000000000000000",
  "2026-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z",
  "not a date",
  "{}",
  "%s%s%n",
  "\\",
  '"',
];

const nastyNumbers = [0, 1, -1, 2, 100, 101, 2 ** 31, -(2 ** 31) - 1, 1e308, 0.5, Number.MAX_SAFE_INTEGER];

function randomJson(r: Random, depth = 0): unknown {
  if (depth > 3 || r.chance(0.4)) return r.pick<unknown>([...nastyStrings.slice(0, 12), ...nastyNumbers, true, null]);
  if (r.chance(0.5)) return Array.from({ length: r.int(4) }, () => randomJson(r, depth + 1));
  return Object.fromEntries(
    Array.from({ length: r.int(4) }, () => [r.pick(["a", "reload_session_ids", "reload_sessions_list", "\u0000k", "x"]), randomJson(r, depth + 1)]),
  );
}

/** A value for an input type: usually of the right shape, sometimes not. */
export function randomValue(r: Random, type: GraphQLInputType, depth = 0): unknown {
  if (r.chance(0.05)) return randomJson(r, 2); // wrong on purpose
  if (isNonNullType(type)) return randomValue(r, type.ofType, depth);
  if (r.chance(0.08)) return null;
  if (isListType(type)) return Array.from({ length: r.int(4) }, () => randomValue(r, type.ofType, depth + 1));
  if (isEnumType(type)) return r.chance(0.9) ? r.pick(type.getValues()).name : "NOT_A_VALUE";
  if (isInputObjectType(type)) {
    if (depth > 4) return {};
    const fields = Object.values(type.getFields());
    return Object.fromEntries(fields.filter((f) => isNonNullType(f.type) || r.chance(0.5)).map((f) => [f.name, randomValue(r, f.type, depth + 1)]));
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case "Int":
        return r.pick(nastyNumbers);
      case "Float":
        return r.pick(nastyNumbers);
      case "Boolean":
        return r.chance(0.5);
      case "JSON":
        return randomJson(r);
      case "DateTime":
        return r.pick(["2030-01-01T00:00:00Z", "2000-01-01T00:00:00Z", "not a date", "9999-12-31T23:59:59Z"]);
      default:
        return r.pick(nastyStrings);
    }
  }
  return null;
}

/** A JavaScript value as a GraphQL literal (enum names bare when the type says so). */
function literal(value: unknown, type: GraphQLInputType | null): string {
  const named = type ? getNamedType(type) : null;
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return named && isEnumType(named) && /^[A-Z_]+$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "0";
  if (typeof value === "boolean") return String(value);
  const inner = type && isNonNullType(type) ? type.ofType : type;
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, inner && isListType(inner) ? inner.ofType : null)).join(", ")}]`;
  const fields = named && isInputObjectType(named) ? named.getFields() : {};
  return `{ ${Object.entries(value as Record<string, unknown>)
    .filter(([k]) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(k))
    .map(([k, v]) => `${k}: ${literal(v, fields[k]?.type ?? null)}`)
    .join(", ")} }`;
}

function selection(r: Random, type: GraphQLObjectType, depth: number): string {
  const fields = Object.values(type.getFields());
  const chosen = Array.from({ length: 1 + r.int(4) }, () => r.pick(fields));
  const parts = [...new Set(chosen)].map((field) => {
    const named = getNamedType(field.type);
    const args = field.args.filter((a) => isNonNullType(a.type) || r.chance(0.3));
    const argText = args.length ? `(${args.map((a) => `${a.name}: ${literal(randomValue(r, a.type), a.type)}`).join(", ")})` : "";
    if (isObjectType(named)) return depth > 2 ? `${field.name}${argText} { __typename }` : `${field.name}${argText} { ${selection(r, named, depth + 1)} }`;
    if (isUnionType(named)) return `${field.name}${argText} { __typename ... on UserError { message } }`;
    return `${field.name}${argText}`;
  });
  return parts.join(" ");
}

export interface FuzzRequest {
  query: string;
  variables?: Record<string, unknown>;
  operation: "query" | "mutation" | "subscription";
}

/** A document for one root field, its arguments inline or as variables. */
function operationFor(r: Random, kind: FuzzRequest["operation"], root: GraphQLObjectType): FuzzRequest {
  const field: GraphQLField<unknown, unknown> = r.pick(Object.values(root.getFields()));
  const named = getNamedType(field.type);
  const sub = isObjectType(named) ? ` { ${selection(r, named, 1)} }` : isUnionType(named) ? " { __typename ... on UserError { message } }" : "";
  const args = field.args.filter((a) => isNonNullType(a.type) || r.chance(0.5));
  if (r.chance(0.5) && args.length > 0) {
    const declared = args.map((a) => `$${a.name}: ${String(a.type)}`).join(", ");
    const variables = Object.fromEntries(args.map((a) => [a.name, randomValue(r, a.type)]));
    return { operation: kind, query: `${kind} (${declared}) { ${field.name}(${args.map((a) => `${a.name}: $${a.name}`).join(", ")})${sub} }`, variables };
  }
  const argText = args.length ? `(${args.map((a) => `${a.name}: ${literal(randomValue(r, a.type), a.type)}`).join(", ")})` : "";
  return { operation: kind, query: `${kind} { ${field.name}${argText}${sub} }` };
}

const junk = [
  "{",
  "}",
  "(",
  ")",
  "[",
  "]",
  "$",
  "!",
  ":",
  "...",
  "@include(if: true)",
  '"',
  "\\u0000",
  "#",
  "\n",
  "query",
  "fragment f on Query { __typename }",
  "\u0000",
  "\uD800",
];

/** Breaks a document the way a careless or hostile client would. */
function mutate(r: Random, text: string): string {
  let out = text;
  for (let i = 0, n = 1 + r.int(3); i < n; i++) {
    const at = r.int(out.length + 1);
    switch (r.int(4)) {
      case 0:
        out = out.slice(0, at) + out.slice(at + 1 + r.int(8));
        break;
      case 1:
        out = out.slice(0, at) + r.pick(junk) + out.slice(at);
        break;
      case 2:
        out = out + out.slice(at, at + r.int(60));
        break;
      default:
        out = out.slice(0, at);
    }
  }
  return out;
}

export function fuzzRequest(r: Random, schema: GraphQLSchema): FuzzRequest {
  const roots = [
    ["query", schema.getQueryType()],
    ["mutation", schema.getMutationType()],
    ["subscription", schema.getSubscriptionType()],
  ].filter(([, t]) => t) as [FuzzRequest["operation"], GraphQLObjectType][];
  const [kind, root] = r.pick(roots);
  const request = operationFor(r, kind, root);
  if (r.chance(0.35)) request.query = mutate(r, request.query);
  if (r.chance(0.05)) request.variables = randomJson(r) as Record<string, unknown>;
  return request;
}

const UPLOAD = `mutation($file: File!, $filename: String) { uploadAsset(file: $file, filename: $filename) { __typename ... on Asset { id } ... on ValidationError { field } } }`;
const uploadTypes = [
  "image/png",
  "text/plain",
  "text/html",
  "application/json",
  "application/octet-stream",
  "image/svg+xml",
  "",
  "text/plain; charset=utf-8",
  "x/\u0000",
];
const uploadNames = ["a.txt", "invoice\u202Efdp.exe", "../../etc/passwd", "a\u0085b", "", " ", "x".repeat(300), "Übersicht.pdf", "a\u0000b"];
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/** A GraphQL multipart request: the file mapped or not, its parts well-formed or broken. */
export function fuzzUpload(r: Random): FormData {
  const form = new FormData();
  const bytes = r.chance(0.2) ? PNG : Buffer.from(Array.from({ length: r.pick([0, 1, 16, 1_024, 20_000]) }, (_, i) => (r.chance(0.5) ? 0x3c : (i * 31) % 256)));
  const operations = r.chance(0.8)
    ? JSON.stringify({
        query: r.chance(0.8) ? UPLOAD : "{ notificationCounts { total } }",
        variables: { file: null, filename: r.chance(0.5) ? r.pick(uploadNames) : null },
      })
    : mutate(r, JSON.stringify({ query: UPLOAD, variables: { file: null } }));
  form.set("operations", operations);
  const map = r.pick([{ 0: ["variables.file"] }, {}, { 0: ["variables.nothing"] }, { 0: ["variables.filename"] }, { 1: ["variables.file"] }]);
  form.set("map", r.chance(0.9) ? JSON.stringify(map) : "{");
  form.set("0", new Blob([bytes], { type: r.pick(uploadTypes) }), r.pick(uploadNames) || "f");
  return form;
}

/** A GraphQL GET's query string: a document, and variables or extensions that may be broken JSON. */
export function fuzzGetParams(r: Random): string {
  const params = new URLSearchParams();
  params.set("query", r.chance(0.8) ? "query($n: Int) { notificationCounts { total } }" : mutate(r, "{ viewer { name } }"));
  const json = () => (r.chance(0.5) ? mutate(r, JSON.stringify(randomJson(r))) : JSON.stringify(randomJson(r)));
  if (r.chance(0.8)) params.set("variables", json());
  if (r.chance(0.4)) params.set("extensions", json());
  if (r.chance(0.1)) params.set("operationName", r.pick(["", "x", "\u0000", "{"]));
  return params.toString();
}
