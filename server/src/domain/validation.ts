// Input rules for everything a producer or person sends. Pure: returns normalised values or
// throws a ValidationError that names the offending field (dotted path inside the input).
import { z } from "zod";
import { ActionKinds, DisplayFormats, NotificationScopes, Presentations, RetentionPolicies, Severities, TriggerTypes } from "./enums.ts";
import { ValidationError } from "./errors.ts";
import type { JsonObject, JsonValue } from "./json.ts";
import { limits } from "./limits.ts";
import { definedOnly } from "./objects.ts";
import type { FollowUpAction, NotificationContent, Target } from "./notification.ts";
import { presentationAllowed, resolveDisplay } from "./presentation.ts";
import { formSchema, toFormFields, unknownFormReference } from "./form.ts";

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const required = (max: number) => z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

const json = z.custom<JsonValue>((value) => {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? "") <= limits.jsonBytes;
  } catch {
    return false;
  }
}, `must be JSON of at most ${limits.jsonBytes} bytes`);

const jsonObject = json.refine((v) => typeof v === "object" && v !== null && !Array.isArray(v), "must be a JSON object") as z.ZodType<JsonObject>;

// Known refresh fields are checked; unknown ones are kept for the producer's own clients.
export const uiEffectsSchema = z
  .looseObject({
    reload_session_ids: z.array(z.string().min(1)).max(100).optional(),
    reload_sessions_list: z.boolean().optional(),
    reload_application_actions: z.boolean().optional(),
  })
  .and(jsonObject);

const safeUrl = z
  .string()
  .max(2_000)
  .refine((value) => {
    try {
      return ["http:", "https:"].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL");

const action = z
  .object({
    kind: z.enum(ActionKinds),
    id: required(64),
    label: required(64),
    url: safeUrl.nullish(),
    text: text(limits.bodyLength).nullish(),
    actionId: required(limits.shortTextLength).nullish(),
    fixedParams: jsonObject.nullish(),
    assetId: required(limits.shortTextLength).nullish(),
    form: formSchema.nullish(),
  })
  .superRefine((a, ctx) => {
    if (a.form && a.form.length > 0 && a.kind !== "RUN_ACTION") {
      ctx.addIssue({ code: "custom", path: ["form"], message: "is only allowed for RUN_ACTION" });
    }
    const reference = unknownFormReference(a.fixedParams, toFormFields(a.form));
    if (reference !== null) {
      ctx.addIssue({ code: "custom", path: ["fixedParams", ...reference.split(".")], message: "names no field of the action's form" });
    }
    const needs: Partial<Record<FollowUpAction["kind"], keyof typeof a>> = {
      OPEN_URL: "url",
      COPY_TEXT: "text",
      RUN_ACTION: "actionId",
      DOWNLOAD_ATTACHMENT_ASSET: "assetId",
    };
    const field = needs[a.kind];
    if (field && (a[field] === undefined || a[field] === null)) {
      ctx.addIssue({ code: "custom", path: [field], message: `is required for ${a.kind}` });
    }
  });

export const displaySchema = z.object({
  format: z.enum(DisplayFormats).nullish(),
  title: required(limits.titleLength).nullish(),
  body: text(limits.bodyLength).nullish(),
  variant: z.enum(Severities).nullish(),
  presentation: z.enum(Presentations).nullish(),
  dismissible: z.boolean().nullish(),
});

const operation = z.object({
  id: required(limits.shortTextLength),
  type: text(limits.shortTextLength).nullish(),
  state: text(limits.shortTextLength).nullish(),
  phase: text(limits.shortTextLength).nullish(),
  elapsedSeconds: z.number().int().min(0).nullish(),
  cancellable: z.boolean().nullish(),
});

const retention = z.object({
  policy: z.enum(RetentionPolicies),
  expiresAt: z.date().nullish(),
  requestId: required(limits.shortTextLength).nullish(),
});

/** A list of follow-ups as a notification takes them: at most the limit, ids unique. */
const actionList = z
  .array(action)
  .max(limits.actionsPerNotification, `must have at most ${limits.actionsPerNotification} actions`)
  .refine((list) => new Set(list.map((a) => a.id)).size === list.length, "action ids must be unique");

const contentFields = {
  title: required(limits.titleLength),
  body: text(limits.bodyLength).nullish(),
  severity: z.enum(Severities).nullish(),
  source: z.object({ plugin: required(limits.shortTextLength), subsystem: text(limits.shortTextLength).nullish() }),
  display: displaySchema.nullish(),
  actions: actionList.nullish(),
  operation: operation.nullish(),
  uiEffects: uiEffectsSchema.nullish(),
  /** The producer's own data for its clients: any JSON value, kept across patches that omit it. */
  data: json.nullish(),
  retention: retention.nullish(),
  trigger: z.object({ type: z.enum(TriggerTypes), ref: text(limits.shortTextLength).nullish() }).nullish(),
  engagementId: z.string().min(1).nullish(),
  requestId: required(limits.shortTextLength).nullish(),
};

const publishSchema = z.object({
  scope: z.enum(NotificationScopes),
  personId: z.string().min(1).nullish(),
  sessionId: z.string().min(1).nullish(),
  key: required(limits.keyLength),
  ...contentFields,
});

const patchSchema = z.object(contentFields).partial();

type ParsedContent = z.output<typeof patchSchema>;

/** Runs a zod schema and turns its first issue into a ValidationError naming the field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, prefix = ""): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || prefix || "input";
  throw new ValidationError(field, `${field}: ${issue.message}`);
}

export interface ValidPublish {
  target: Target;
  key: string;
  content: NotificationContent;
}

export function validatePublish(input: unknown, now: Date): ValidPublish {
  const parsed = parse(publishSchema, input);
  const target = validateTarget(parsed);
  const content = toContent(parsed as ParsedContent & { title: string; source: { plugin: string } }, now);
  checkPresentation(target, content);
  checkWayForward(target, content);
  return { target, key: parsed.key, content };
}

/** Applies a patch to the current content: given fields replace, absent ones are kept, except
 * uiEffects, which belong to one revision and are never inherited. */
export function validatePatch(current: NotificationContent, target: Target, patch: unknown, now: Date): NotificationContent {
  const parsed = parse(patchSchema, patch, "patch");
  const base = toContent(
    {
      ...contentToInput(current),
      ...definedOnly(parsed),
      display: parsed.display ? { ...current.displayOverrides, ...definedOnly(parsed.display) } : current.displayOverrides,
      uiEffects: parsed.uiEffects ?? null,
    },
    now,
    "patch",
    parsed.retention !== undefined && parsed.retention !== null,
  );
  checkPresentation(target, base, "patch");
  checkWayForward(target, base, "patch");
  return base;
}

const patchTargetSchema = z.object({
  scope: z.enum(NotificationScopes),
  personId: z.string().min(1).nullish(),
  sessionId: z.string().min(1).nullish(),
  key: required(limits.keyLength),
});

/** updateNotificationByKey: the scope target and key of the active occurrence to patch. */
/**
 * A patch by key when no occurrence of the key exists to start from: it begins a new occurrence
 * when it carries what a publish needs (a title, and a source unless the key is bound to a
 * plugin, whose plugin it then names); null when it does not (there is nothing to patch).
 */
export function validatePatchAsNew(target: Target, patch: unknown, now: Date, plugin: string | null): NotificationContent | null {
  const parsed = parse(patchSchema, patch, "patch");
  const source = parsed.source ?? (plugin === null ? null : { plugin, subsystem: null });
  if (!parsed.title || !source) return null;
  const content = toContent({ ...parsed, title: parsed.title, source }, now, "patch");
  checkPresentation(target, content, "patch");
  checkWayForward(target, content, "patch");
  return content;
}

export function validatePatchTarget(input: unknown): { target: Target; key: string } {
  const parsed = parse(patchTargetSchema, input, "target");
  return { target: validateTarget(parsed, "target"), key: parsed.key };
}

function validateTarget(input: { scope: Target["scope"]; personId?: string | null; sessionId?: string | null }, prefix = ""): Target {
  const fail = (field: string, rule: string) => {
    const at = [prefix, field].filter(Boolean).join(".");
    return new ValidationError(at, `${at}: ${rule}`);
  };
  switch (input.scope) {
    case "APPLICATION":
      if (input.personId) throw fail("personId", "must be empty for APPLICATION scope");
      if (input.sessionId) throw fail("sessionId", "must be empty for APPLICATION scope");
      return { scope: "APPLICATION", personId: null, sessionId: null };
    case "PERSON":
      if (!input.personId) throw fail("personId", "is required for PERSON scope");
      if (input.sessionId) throw fail("sessionId", "must be empty for PERSON scope");
      return { scope: "PERSON", personId: input.personId, sessionId: null };
    case "SESSION":
      if (!input.sessionId) throw fail("sessionId", "is required for SESSION scope");
      if (input.personId) throw fail("personId", "must be empty for SESSION scope");
      // The owner is filled in by the service once the session is looked up.
      return { scope: "SESSION", personId: null, sessionId: input.sessionId };
  }
}

function checkPresentation(target: Target, content: NotificationContent, prefix = "") {
  const shown = resolveDisplay(target.scope, content);
  if (!presentationAllowed(target.scope, shown.presentation)) {
    const field = [prefix, "display.presentation"].filter(Boolean).join(".");
    throw new ValidationError(field, `${field}: ${shown.presentation} is not allowed for ${target.scope} scope`);
  }
}

/**
 * A record the person cannot dismiss must never become a dead end: it needs a follow-up that
 * leads on (any kind but DISMISS, which it would contradict) or a TTL that ends it by itself.
 */
function checkWayForward(target: Target, content: NotificationContent, prefix = "") {
  if (resolveDisplay(target.scope, content).dismissible) return;
  const at = (field: string) => [prefix, field].filter(Boolean).join(".");
  const dismissAt = content.actions.findIndex((a) => a.kind === "DISMISS");
  if (dismissAt >= 0) {
    const field = at(`actions.${dismissAt}.kind`);
    throw new ValidationError(field, `${field}: a DISMISS follow-up contradicts display.dismissible false`);
  }
  if (content.actions.length === 0 && content.retention.policy !== "TTL") {
    const field = at("display.dismissible");
    throw new ValidationError(
      field,
      `${field}: a notification that cannot be dismissed needs a follow-up action (or a TTL retention) so it is never a dead end`,
    );
  }
}

function toContent(
  input: ParsedContent & { title?: string | null; source?: { plugin: string; subsystem?: string | null } | null },
  now: Date,
  prefix = "",
  // A deadline is checked when the caller sends it; one carried over from the stored record may
  // have passed, and a producer updating such a record (its content, not its TTL) is not refused.
  deadlineGiven = true,
): NotificationContent {
  const at = (field: string) => [prefix, field].filter(Boolean).join(".");
  const retentionIn = input.retention ?? { policy: "UNTIL_RESOLVED" as const };
  const requestId = input.requestId ?? retentionIn.requestId ?? null;
  if (retentionIn.policy === "TTL") {
    if (!retentionIn.expiresAt) throw new ValidationError(at("retention.expiresAt"), `${at("retention.expiresAt")}: is required for TTL`);
    if (deadlineGiven && retentionIn.expiresAt <= now)
      throw new ValidationError(at("retention.expiresAt"), `${at("retention.expiresAt")}: must be in the future`);
  } else if (retentionIn.expiresAt) {
    throw new ValidationError(at("retention.expiresAt"), `${at("retention.expiresAt")}: is only allowed with the TTL policy`);
  }
  if (retentionIn.policy === "UNTIL_REQUEST_COMPLETE" && !requestId) {
    throw new ValidationError(at("retention.requestId"), `${at("retention.requestId")}: UNTIL_REQUEST_COMPLETE needs a requestId`);
  }
  const op = input.operation;
  return {
    severity: input.severity ?? "INFO",
    title: input.title ?? "",
    body: input.body ?? "",
    source: { plugin: input.source?.plugin ?? "", subsystem: input.source?.subsystem ?? null },
    displayOverrides: definedOnly(input.display ?? {}) as NotificationContent["displayOverrides"],
    actions: toActions(input.actions),
    operation: op
      ? {
          id: op.id,
          type: op.type ?? null,
          state: op.state ?? null,
          phase: op.phase ?? null,
          elapsedSeconds: op.elapsedSeconds ?? null,
          cancellable: op.cancellable ?? false,
        }
      : null,
    uiEffects: (input.uiEffects as JsonObject | null | undefined) ?? null,
    data: (input.data as JsonValue | null | undefined) ?? null,
    retention: { policy: retentionIn.policy, expiresAt: retentionIn.expiresAt ?? null, requestId },
    trigger: { type: input.trigger?.type ?? "PRODUCER", ref: input.trigger?.ref ?? null },
    engagementId: input.engagementId ?? null,
    requestId,
  };
}

function toActions(actions: z.output<typeof actionList> | null | undefined): FollowUpAction[] {
  return (actions ?? []).map((a) => ({
    kind: a.kind,
    id: a.id,
    label: a.label,
    url: a.url ?? null,
    text: a.text ?? null,
    actionId: a.actionId ?? null,
    fixedParams: a.fixedParams ?? null,
    assetId: a.assetId ?? null,
    form: toFormFields(a.form),
  }));
}

/** Follow-ups checked by a notification's rules (kinds, forms, limits, unique ids); `field` names the input. */
export function validateFollowUps(input: unknown, field: string): FollowUpAction[] {
  return toActions(parse(actionList.nullish(), input, field));
}

/** Content fields a patch that omits them does not keep as they are: validatePatch merges the display and drops the ui effects. */
type NotKeptByPatch = "displayOverrides" | "uiEffects";

/**
 * The current content as patch input: every field a patch that omits it keeps. Total by type: a
 * field added to NotificationContent fails to compile here until it is listed (or named in
 * NotKeptByPatch), and one whose stored form is not a valid input fails too (no cast).
 */
function contentToInput(content: NotificationContent): ParsedContent {
  return {
    title: content.title,
    body: content.body,
    severity: content.severity,
    source: content.source,
    actions: content.actions,
    operation: content.operation,
    data: content.data,
    retention: content.retention,
    trigger: content.trigger,
    engagementId: content.engagementId,
    requestId: content.requestId,
  } satisfies Record<Exclude<keyof NotificationContent, NotKeptByPatch>, unknown>;
}

const untilSchema = z.date();
export function validateSnoozeUntil(until: unknown, now: Date): Date {
  const value = parse(untilSchema, until, "until");
  if (value <= now) throw new ValidationError("until", "until: must be in the future");
  return value;
}

export function validateReason(reason: unknown, field = "reason"): string | null {
  return parse(text(limits.reasonLength).nullish(), reason, field) ?? null;
}

export function validateName(name: unknown, field = "name"): string {
  return parse(required(limits.nameLength), name, field);
}

/** The plugin a producer key is bound to: what its notifications must carry as source.plugin. */
export function validatePluginName(plugin: unknown, field = "plugin"): string {
  return parse(required(limits.shortTextLength), plugin, field);
}

export function validateResolution(resolution: unknown): { actionId: string | null; values: JsonValue | null } | null {
  const parsed = parse(z.object({ actionId: required(limits.shortTextLength).nullish(), values: json.nullish() }).nullish(), resolution, "resolution");
  return parsed ? { actionId: parsed.actionId ?? null, values: (parsed.values as JsonValue | undefined) ?? null } : null;
}

/** A JSON object within the JSON size limit (emitEvent's payload). */
export function validatePayload(value: unknown, field: string): JsonObject {
  return parse(jsonObject, value, field);
}

export function validateActionValues(values: unknown): JsonValue | null {
  return (parse(json.nullish(), values, "values") as JsonValue | undefined) ?? null;
}

export function validateIds(ids: readonly string[], field = "ids"): string[] {
  if (ids.length > limits.batchIds) throw new ValidationError(field, `${field}: at most ${limits.batchIds} ids per call`);
  return [...new Set(ids)];
}

export function validatePageSize(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0 || value > limits.pageSize) {
    throw new ValidationError(field, `${field}: must be between 0 and ${limits.pageSize}`);
  }
  return value;
}
