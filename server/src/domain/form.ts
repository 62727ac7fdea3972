// Forms on RUN_ACTION follow-ups: the fields a person fills in before the action runs, and how
// the submitted values reach the producer. A fixedParams entry written as "$form.<field name>"
// is replaced by that field's value; the producer receives the mapped fixedParams (and the raw
// values). Pure: every refusal is a ValidationError naming the field.
import { z } from "zod";
import { ValidationError } from "./errors.ts";
import type { JsonObject, JsonValue } from "./json.ts";
import { limits } from "./limits.ts";

export const FormFieldTypes = ["TEXT", "TEXTAREA", "NUMBER", "BOOLEAN", "SELECT"] as const;
export type FormFieldType = (typeof FormFieldTypes)[number];

export interface FormField {
  name: string;
  label: string;
  type: FormFieldType;
  required: boolean;
  /** SELECT: the values a person may choose from. */
  options: string[] | null;
  placeholder: string | null;
  /** TEXT and TEXTAREA: the longest accepted value (default formLimits.textLength). */
  maxLength: number | null;
}

export const formLimits = {
  fields: 10,
  options: 50,
  textLength: 2_000,
} as const;

const FORM_REFERENCE = /^\$form\.(.+)$/;

const fieldName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "must be 1-64 letters, digits or _, not starting with a digit")
  // Its values could never be submitted: the key __proto__ is refused in every JSON input.
  .refine((name) => name !== "__proto__", "must not be __proto__");

export const formFieldSchema = z
  .object({
    name: fieldName,
    label: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
    type: z.enum(FormFieldTypes),
    required: z.boolean().nullish(),
    options: z.array(z.string().min(1).max(200)).min(1).max(formLimits.options).nullish(),
    placeholder: z.string().max(200).nullish(),
    maxLength: z.number().int().min(1).max(formLimits.textLength).nullish(),
  })
  .superRefine((f, ctx) => {
    if (f.type === "SELECT" && !f.options) ctx.addIssue({ code: "custom", path: ["options"], message: "is required for SELECT" });
    if (f.type !== "SELECT" && f.options) ctx.addIssue({ code: "custom", path: ["options"], message: "is only allowed for SELECT" });
  });

export const formSchema = z
  .array(formFieldSchema)
  .max(formLimits.fields, `must have at most ${formLimits.fields} fields`)
  .refine((list) => new Set(list.map((f) => f.name)).size === list.length, "field names must be unique");

export function toFormFields(parsed: z.output<typeof formSchema> | null | undefined): FormField[] | null {
  if (!parsed || parsed.length === 0) return null;
  return parsed.map((f) => ({
    name: f.name,
    label: f.label,
    type: f.type,
    required: f.required ?? false,
    options: f.options ?? null,
    placeholder: f.placeholder ?? null,
    maxLength: f.maxLength ?? null,
  }));
}

/** The first "$form.<name>" reference in fixedParams that names no field of the form, as a path below fixedParams. */
export function unknownFormReference(fixedParams: JsonValue | null | undefined, form: readonly FormField[] | null): string | null {
  const names = new Set((form ?? []).map((f) => f.name));
  let found: string | null = null;
  visit(fixedParams ?? null, [], (value, path) => {
    const match = FORM_REFERENCE.exec(value);
    if (found === null && match && !names.has(match[1]!)) found = path.join(".");
    return value;
  });
  return found;
}

/**
 * Checks submitted values against the form and maps them into fixedParams. Without a form the
 * values pass through untouched (the follow-up's producer reads them as it did before forms).
 */
export function applyForm(
  form: readonly FormField[] | null,
  fixedParams: JsonObject | null,
  values: JsonValue | null,
): { fixedParams: JsonObject | null; values: JsonValue | null } {
  if (!form) return { fixedParams, values };
  if (values !== null && (typeof values !== "object" || Array.isArray(values))) {
    throw new ValidationError("values", "values: must be an object of form field values");
  }
  const submitted = (values ?? {}) as JsonObject;
  const byName = new Map(form.map((f) => [f.name, f]));
  for (const name of Object.keys(submitted)) {
    if (!byName.has(name)) throw new ValidationError(`values.${name}`, `values.${name}: not a field of this form`);
  }
  // Own properties and a Map only: a field named like an Object.prototype member ("constructor",
  // "toString") must read as not submitted, never as the inherited function.
  const accepted = new Map<string, JsonValue>();
  for (const field of form) accepted.set(field.name, checkField(field, Object.hasOwn(submitted, field.name) ? submitted[field.name] : undefined));
  const mapped = visit(fixedParams, [], (value) => {
    const match = FORM_REFERENCE.exec(value);
    return match ? (accepted.get(match[1]!) ?? null) : value;
  }) as JsonObject | null;
  const size = Buffer.byteLength(JSON.stringify(mapped));
  // References copy values, so a small submission can map to a large fixedParams: the JSON bound
  // holds for what is stored and delivered, not only for what was sent.
  if (size > limits.jsonBytes) {
    throw new ValidationError("values", `values: the action's parameters with these values would be ${size} bytes, more than ${limits.jsonBytes}`);
  }
  return { fixedParams: mapped, values: Object.fromEntries(accepted) as JsonObject };
}

function checkField(field: FormField, value: JsonValue | undefined): JsonValue {
  const at = `values.${field.name}`;
  const empty = value === undefined || value === null || (typeof value === "string" && value.trim() === "");
  if (empty) {
    if (field.required) throw new ValidationError(at, `${at}: ${field.label} is required`);
    return field.type === "BOOLEAN" ? false : null;
  }
  switch (field.type) {
    case "TEXT":
    case "TEXTAREA": {
      if (typeof value !== "string") throw new ValidationError(at, `${at}: must be text`);
      const max = field.maxLength ?? formLimits.textLength;
      if (value.length > max) throw new ValidationError(at, `${at}: must be at most ${max} characters`);
      return value;
    }
    case "NUMBER": {
      const number = typeof value === "string" ? Number(value) : value;
      if (typeof number !== "number" || !Number.isFinite(number)) throw new ValidationError(at, `${at}: must be a number`);
      return number;
    }
    case "BOOLEAN":
      if (typeof value !== "boolean") throw new ValidationError(at, `${at}: must be true or false`);
      return value;
    case "SELECT":
      if (typeof value !== "string" || !field.options?.includes(value)) {
        throw new ValidationError(at, `${at}: must be one of ${(field.options ?? []).join(", ")}`);
      }
      return value;
  }
}

/** Rebuilds a JSON value with every string passed through `map` (objects and arrays at any depth). */
function visit(value: JsonValue | null, path: string[], map: (text: string, path: string[]) => JsonValue): JsonValue | null {
  if (typeof value === "string") return map(value, path);
  if (Array.isArray(value)) return value.map((v, i) => visit(v, [...path, String(i)], map));
  if (value !== null && typeof value === "object") {
    // fromEntries defines own properties: a "__proto__" key stays a key instead of a prototype.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v, [...path, k], map)])) as JsonObject;
  }
  return value;
}
