// emitEvent input: what a producer says happened in its engine. Pure.
import { z } from "zod";
import { ValidationError } from "./errors.ts";
import type { JsonObject, JsonValue } from "./json.ts";
import { limits } from "./limits.ts";
import { parse, validatePayload } from "./validation.ts";

export interface EmittedEvent {
  type: string;
  payload: JsonObject;
  engagementId: string | null;
  actorPersonId: string | null;
  occurredAt: Date;
  idempotencyKey: string | null;
}

const eventType = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters")
  .regex(/^[A-Za-z0-9_.:-]+$/, "may hold only letters, digits and . _ : -");

const schema = z.object({
  type: eventType,
  payload: z.unknown().optional(),
  engagementId: z.string().min(1).max(limits.shortTextLength).nullish(),
  actorPersonId: z.string().min(1).max(limits.shortTextLength).nullish(),
  occurredAt: z.date().nullish(),
  idempotencyKey: z.string().trim().min(1, "must not be empty").max(limits.shortTextLength).nullish(),
});

export function validateEmitEvent(input: unknown, now: Date): EmittedEvent {
  const parsed = parse(schema, input);
  return {
    type: parsed.type,
    payload: validatePayload(parsed.payload ?? {}, "payload"),
    engagementId: parsed.engagementId ?? null,
    actorPersonId: parsed.actorPersonId ?? null,
    occurredAt: parsed.occurredAt ?? now,
    idempotencyKey: parsed.idempotencyKey ?? null,
  };
}

/** The engine event id a built-in listener needs: `payload.id`, a non-empty string or number. */
export function engineEventId(event: EmittedEvent): string {
  const id = event.payload.id;
  const text = typeof id === "number" && Number.isFinite(id) ? String(id) : typeof id === "string" ? id.trim() : "";
  if (text === "" || text.length > 150) {
    throw new ValidationError("payload.id", "payload.id: the engine event id (a string of 1-150 characters) is required for this event type");
  }
  return text;
}

/** A short display string from the payload (a name or summary), or the fallback. */
export function payloadText(event: EmittedEvent, field: string, fallback: string, max = 120): string {
  const value = event.payload[field];
  if (typeof value !== "string" || value.trim() === "") return fallback;
  const text = value.trim().replace(/\s+/g, " ");
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function requireEngagement(event: EmittedEvent): string {
  if (!event.engagementId) throw new ValidationError("engagementId", `engagementId: is required for ${event.type} events`);
  return event.engagementId;
}

/**
 * What an event says, as one string that does not depend on key order: a repeated
 * idempotencyKey must carry the same body. occurredAt counts only when the producer gave it.
 */
export function eventBody(event: EmittedEvent, occurredAtGiven: boolean): string {
  return sortedJson({
    type: event.type,
    payload: event.payload,
    engagementId: event.engagementId,
    actorPersonId: event.actorPersonId,
    occurredAt: occurredAtGiven ? event.occurredAt.toISOString() : null,
  });
}

function sortedJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(value[k]!)}`).join(",")}}`;
}
