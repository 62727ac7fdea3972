// The Pi root-TUI label consumer's rules, without I/O: what a `herald session-metadata` line says,
// which snapshot may be applied to the current session, and who owns the session's Pi name.
// Generations are compared as canonical decimal strings, never as JavaScript numbers: they are
// uint64 and a number would round them.

export const HARNESS = "pi";
/** The custom entry that records an automatic name (omitted from the model's context by Pi). */
export const PROVENANCE_TYPE = "herald-session-label";
export const PROVENANCE_VERSION = 1;
/** What one metadata read may print (the command's own contract). */
export const METADATA_MAX_BYTES = 2048;
const LABEL_MAX_BYTES = 60;

export interface Metadata {
  status: "known" | "missing" | "unavailable";
  sessionId: string;
  label: string;
  completionId: string;
  sourceGeneration: string;
  labelGeneration: string;
}

const DECIMAL = /^(0|[1-9][0-9]{0,19})$/;
const UINT64_MAX = "18446744073709551615";
const FIELDS = ["version", "status", "harness", "session_id", "label", "completion_id", "source_generation", "label_generation"];

/** A canonical unsigned decimal within uint64 ("0", "17"; no sign, no leading zeros). */
export function isGeneration(text: unknown): text is string {
  return typeof text === "string" && DECIMAL.test(text) && compareGenerations(text, UINT64_MAX) <= 0;
}

/** Orders two canonical decimals: by length, then digit by digit. */
export function compareGenerations(a: string, b: string): -1 | 0 | 1 {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/** A label in the server's stored form: NFC, single spaces, 3-4 words, at most 60 UTF-8 bytes, no control or format characters. */
export function isLabel(text: unknown): text is string {
  if (typeof text !== "string") return false;
  const normal = text.normalize("NFC").trim().replace(/\s+/gu, " ");
  if (normal !== text || /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(text)) return false;
  const words = text.split(" ");
  return words.length >= 3 && words.length <= 4 && Buffer.byteLength(text, "utf8") <= LABEL_MAX_BYTES;
}

/**
 * One line of `herald session-metadata` output, checked field by field; null for anything that
 * is not exactly the documented shape (a consumer must not guess at a malformed answer).
 */
export function parseMetadata(stdout: string): Metadata | null {
  if (Buffer.byteLength(stdout, "utf8") > METADATA_MAX_BYTES || !stdout.endsWith("\n")) return null;
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length !== FIELDS.length || !FIELDS.every((f) => keys.includes(f))) return null;
  if (record.version !== 1 || record.harness !== HARNESS) return null;
  const { status, session_id, label, completion_id, source_generation, label_generation } = record;
  if (status !== "known" && status !== "missing" && status !== "unavailable") return null;
  if (typeof session_id !== "string" || typeof label !== "string" || typeof completion_id !== "string") return null;
  if (!isGeneration(source_generation) || !isGeneration(label_generation)) return null;
  if (status === "known") {
    if (source_generation === "0" || completion_id === "") return null;
    if ((label_generation === "0") !== (label === "")) return null;
    if (label !== "" && !isLabel(label)) return null;
    if (compareGenerations(label_generation, source_generation) > 0) return null;
  }
  return { status, sessionId: session_id, label, completionId: completion_id, sourceGeneration: source_generation, labelGeneration: label_generation };
}

/** The generations a session's name was last applied from (its baseline). */
export interface Generations {
  sourceGeneration: string;
  labelGeneration: string;
}

export interface SourceIdentity {
  /** Pi's native session id. */
  sessionId: string;
  /** The id of the terminal assistant entry this schedule reads for. */
  completionId: string;
}

export type SnapshotDecision = { kind: "apply"; label: string; generations: Generations } | { kind: "skip"; reason: string };

/**
 * Whether a snapshot may name the session. It must be known, for this native session and this
 * terminal assistant entry, and carry a label. A prior nonempty label is fine while a later
 * refresh is still publishing (label generation below source generation). A snapshot older than
 * the baseline already applied is never applied over it.
 */
export function decideSnapshot(metadata: Metadata, source: SourceIdentity, baseline: Generations | null): SnapshotDecision {
  if (metadata.status !== "known") return { kind: "skip", reason: metadata.status };
  if (metadata.sessionId !== source.sessionId) return { kind: "skip", reason: "another session" };
  if (metadata.completionId !== source.completionId) return { kind: "skip", reason: "another source" };
  if (metadata.label === "") return { kind: "skip", reason: "not labelled yet" };
  const generations = { sourceGeneration: metadata.sourceGeneration, labelGeneration: metadata.labelGeneration };
  if (baseline) {
    if (compareGenerations(generations.sourceGeneration, baseline.sourceGeneration) < 0) return { kind: "skip", reason: "older source" };
    if (compareGenerations(generations.labelGeneration, baseline.labelGeneration) < 0) return { kind: "skip", reason: "older label" };
  }
  return { kind: "apply", label: metadata.label, generations };
}

/** The versioned provenance record of an automatic name. */
export interface Provenance extends Generations {
  v: typeof PROVENANCE_VERSION;
  /** The native session that wrote the name (a fork records its own on its first result). */
  sessionId: string;
  /** The session_info entry the extension appended. */
  sessionInfoId: string;
  label: string;
}

export function provenanceOf(data: unknown): Provenance | null {
  if (!data || typeof data !== "object") return null;
  const d = data as Record<string, unknown>;
  if (d.v !== PROVENANCE_VERSION) return null;
  if (typeof d.sessionId !== "string" || d.sessionId === "" || typeof d.sessionInfoId !== "string" || d.sessionInfoId === "") return null;
  if (!isLabel(d.label) || !isGeneration(d.sourceGeneration) || !isGeneration(d.labelGeneration)) return null;
  return {
    v: PROVENANCE_VERSION,
    sessionId: d.sessionId,
    sessionInfoId: d.sessionInfoId,
    label: d.label,
    sourceGeneration: d.sourceGeneration,
    labelGeneration: d.labelGeneration,
  };
}

/** The part of a Pi session entry the rules read. */
export interface EntryLike {
  type: string;
  id: string;
  name?: string | undefined;
  customType?: string | undefined;
  data?: unknown;
}

export type Ownership =
  /** No naming row: the extension may name it. */
  | { kind: "unnamed" }
  /** The latest naming row is the extension's own; `baseline` only when written for this session. */
  | { kind: "automatic"; provenance: Provenance; baseline: Generations | null }
  /** Anything else: a person named (or cleared) it, and that always wins. */
  | { kind: "manual" };

/**
 * Who owns the session's name. Pi's name is its latest session_info row (over all entries, as
 * Pi reads it). The row is automatic only when a valid provenance record names that exact row
 * and its text; a row with the same text but no record, a cleared name, or a corrupt record is
 * manual. A fork's copied record is recognised, but its generations belong to the old session.
 */
export function namingOwnership(entries: readonly EntryLike[], sessionId: string): Ownership {
  let latestInfo: EntryLike | undefined;
  for (let i = entries.length - 1; i >= 0 && !latestInfo; i--) if (entries[i]!.type === "session_info") latestInfo = entries[i];
  if (!latestInfo) return { kind: "unnamed" };
  const name = (latestInfo.name ?? "").trim();
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.type !== "custom" || entry.customType !== PROVENANCE_TYPE) continue;
    const provenance = provenanceOf(entry.data);
    if (!provenance || provenance.sessionInfoId !== latestInfo.id || provenance.label !== name) continue;
    const baseline = provenance.sessionId === sessionId ? { sourceGeneration: provenance.sourceGeneration, labelGeneration: provenance.labelGeneration } : null;
    return { kind: "automatic", provenance, baseline };
  }
  return { kind: "manual" };
}

/** The session's naming rows, oldest first. */
export function sessionInfoRows(entries: readonly EntryLike[]): EntryLike[] {
  return entries.filter((e) => e.type === "session_info");
}

/**
 * After the extension asked Pi to set the name, whether exactly the one expected row was
 * appended. Anything else (no row, two rows, other text: a reentrant /name) leaves the name manual.
 */
export function ownAppendedRow(before: readonly EntryLike[], after: readonly EntryLike[], label: string): EntryLike | null {
  if (after.length !== before.length + 1) return null;
  const row = after.at(-1)!;
  if (before.some((e) => e.id === row.id) || (row.name ?? "").trim() !== label) return null;
  return row;
}
