// Shared session labels: which exchanges count, when a label is requested, which labeler
// answers are accepted, and what a stored label state must look like. Pure: no I/O, no clock.
import { createHash } from "node:crypto";
import { supportedHarnesses } from "./harnesses.ts";
import { sessionTitle } from "./session-title.ts";

/** Generations are unsigned 64-bit counters, kept exact as BigInt and canonical decimal text. */
export const MAX_GENERATION = 2n ** 64n - 1n;
/** After a successful refresh, naming is reconsidered this many exchanges later (1, 5, 9, ...). */
export const REFRESH_EVERY = 4n;
export const LABEL_MAX_BYTES = 60;
/** Each side of the user/assistant pair a labeler sees (and the fingerprint covers). */
export const MATERIAL_CHARS = 2_000;
/** The completion notification's body: the start of the assistant's answer. */
export const BODY_CHARS = 500;

export type Harness = (typeof supportedHarnesses)[number];

export interface LabelState {
  label: string;
  completionId: string;
  sourceGeneration: bigint;
  labelGeneration: bigint;
  /** SHA-256 (hex) of the bounded material of the last naming attempt; "" before the first. */
  namingFingerprint: string;
}

export const noLabelState: LabelState = { label: "", completionId: "", sourceGeneration: 0n, labelGeneration: 0n, namingFingerprint: "" };

export interface Material {
  user: string;
  assistant: string;
}

export type LabelAnswer = { kind: "label"; text: string } | { kind: "keep" };

export function isSupportedHarness(value: string): value is Harness {
  return (supportedHarnesses as readonly string[]).includes(value);
}

/** 1-128 characters of A-Za-z0-9._:- not starting with "." or "-" (the harness's own id). */
export function isValidSessionId(value: string): boolean {
  return /^[A-Za-z0-9_:][A-Za-z0-9._:-]{0,127}$/.test(value);
}

/** A native completion id: 1-128 visible ASCII characters (no spaces or control characters). */
export function isValidCompletionId(value: string): boolean {
  return /^[\x21-\x7e]{1,128}$/.test(value);
}

/** Canonical unsigned decimal ("0", "17"; no sign, no leading zeros) within uint64, else null. */
export function parseGeneration(text: string): bigint | null {
  if (!/^(0|[1-9][0-9]{0,19})$/.test(text)) return null;
  const value = BigInt(text);
  return value <= MAX_GENERATION ? value : null;
}

export const formatGeneration = (value: bigint): string => value.toString();

/**
 * The stored form of a label: NFC, single spaces, 3 or 4 words, at most 60 UTF-8 bytes, no
 * control or invisible formatting characters. Returns null when the text cannot be a label.
 */
export function normalizeLabel(raw: string): string | null {
  const text = raw.normalize("NFC").trim().replace(/\s+/gu, " ");
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(text)) return null;
  const words = text.split(" ");
  if (words.length < 3 || words.length > 4) return null;
  if (Buffer.byteLength(text, "utf8") > LABEL_MAX_BYTES) return null;
  return text;
}

export const isValidLabel = (label: string): boolean => normalizeLabel(label) === label;

export { projectOf } from "./session-title.ts";

const bound = (text: string, chars: number): string => {
  const points = Array.from(text.trim());
  return points.length <= chars ? points.join("") : points.slice(0, chars).join("");
};

export function boundedMaterial(user: string, assistant: string): Material {
  return { user: bound(user, MATERIAL_CHARS), assistant: bound(assistant, MATERIAL_CHARS) };
}

export function fingerprintOf(material: Material): string {
  return createHash("sha256")
    .update(JSON.stringify([material.user, material.assistant]))
    .digest("hex");
}

export type ExchangeDecision =
  | { kind: "duplicate" }
  /** The source generation is already at the uint64 maximum: nothing more can be counted. */
  | { kind: "exhausted" }
  | { kind: "accepted"; next: LabelState; naming: { generation: bigint; material: Material } | null };

/**
 * A completed exchange with a native completion id. A retry of an accepted completion changes
 * nothing; a new one counts, and asks for a label at the first exchange and then four exchanges
 * after the last successful refresh, but only when the material changed since the last attempt.
 */
export function decideExchange(state: LabelState, completionId: string, seenBefore: boolean, material: Material): ExchangeDecision {
  if (seenBefore) return { kind: "duplicate" };
  if (state.sourceGeneration >= MAX_GENERATION) return { kind: "exhausted" };
  const generation = state.sourceGeneration + 1n;
  const fingerprint = fingerprintOf(material);
  const due = state.labelGeneration === 0n || generation - state.labelGeneration >= REFRESH_EVERY;
  const naming = due && fingerprint !== state.namingFingerprint;
  return {
    kind: "accepted",
    next: { ...state, completionId, sourceGeneration: generation, namingFingerprint: naming ? fingerprint : state.namingFingerprint },
    naming: naming ? { generation, material } : null,
  };
}

export type LabelOutcome =
  | { kind: "write"; label: string; labelGeneration: bigint }
  /** A refresh of a newer exchange already landed: this older result must not overwrite it. */
  | { kind: "late" }
  /** The answer cannot be used (a failed refresh: the prior label stays). */
  | { kind: "invalid"; reason: string };

/** What a labeler's answer for exchange `generation` does to the current state. */
export function decideLabelResult(state: LabelState, generation: bigint, answer: LabelAnswer): LabelOutcome {
  if (state.labelGeneration >= generation || generation > state.sourceGeneration) return { kind: "late" };
  if (answer.kind === "keep") {
    if (state.label === "") return { kind: "invalid", reason: "KEEP without a label to keep" };
    return { kind: "write", label: state.label, labelGeneration: generation };
  }
  const label = normalizeLabel(answer.text);
  if (label === null) return { kind: "invalid", reason: "not a 3-4 word label of at most 60 bytes" };
  return { kind: "write", label, labelGeneration: generation };
}

/**
 * Checks a stored state against the record rules: a positive source generation with a valid
 * completion id; the label empty exactly when the label generation is 0, otherwise valid and
 * not ahead of the source. "none" is a session that has not accepted an exchange yet.
 */
export function readLabelState(columns: {
  label: string;
  completionId: string;
  sourceGeneration: string;
  labelGeneration: string;
  namingFingerprint: string;
}): LabelState | "none" | "invalid" {
  const source = parseGeneration(columns.sourceGeneration);
  const labelGeneration = parseGeneration(columns.labelGeneration);
  if (source === null || labelGeneration === null) return "invalid";
  if (!/^([0-9a-f]{64})?$/.test(columns.namingFingerprint)) return "invalid";
  if (source === 0n) {
    const untouched = labelGeneration === 0n && columns.label === "" && columns.completionId === "";
    return untouched ? "none" : "invalid";
  }
  if (!isValidCompletionId(columns.completionId) || labelGeneration > source) return "invalid";
  if ((labelGeneration === 0n) !== (columns.label === "")) return "invalid";
  if (columns.label !== "" && !isValidLabel(columns.label)) return "invalid";
  return { ...columns, sourceGeneration: source, labelGeneration };
}

/** The completion notification: the label (or the cwd's project) names the session. */
export function completionNotification(input: { harness: string; label: string; cwd: string; assistantText: string }) {
  const answer = input.assistantText.trim().replace(/\s+/g, " ");
  const points = Array.from(answer);
  const body = points.length <= BODY_CHARS ? answer : `${points.slice(0, BODY_CHARS - 1).join("")}…`;
  return { title: sessionTitle(input, "finished"), body };
}

/** A session as the service and the API see it: its label state decoded (empty when unreadable). */
export interface SessionRecord {
  id: string;
  harness: string;
  nativeSessionId: string;
  ownerPersonId: string;
  createdAt: Date;
  label: string;
  completionId: string;
  sourceGeneration: bigint;
  labelGeneration: bigint;
}
