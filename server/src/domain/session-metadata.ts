// The read-only metadata query's request rules and exact output: one JSON object per line,
// fields in a fixed order, generations as canonical decimal strings, at most 2048 bytes.
import { formatGeneration, isSupportedHarness, isValidSessionId, type LabelState } from "./session-labels.ts";

export const METADATA_MAX_BYTES = 2048;
export const INVALID_REQUEST = `${JSON.stringify({ version: 1, status: "invalid_request" })}\n`;

export interface MetadataRequest {
  harness: string;
  sessionId: string;
  /** From --database-url; null: DATABASE_URL or the server's default store. */
  databaseUrl: string | null;
}

const flags = { "--harness": "harness", "--session-id": "sessionId", "--database-url": "databaseUrl" } as const;

/**
 * `--flag value` or `--flag=value`, each flag at most once; anything else (an unknown flag, a
 * stray argument, a missing value or flag, an unsupported harness, an invalid session id) is
 * an invalid request: null.
 */
export function parseMetadataArgs(args: readonly string[]): MetadataRequest | null {
  const given: Partial<Record<(typeof flags)[keyof typeof flags], string>> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (!Object.hasOwn(flags, name)) return null;
    const key = flags[name as keyof typeof flags];
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = args[++i];
      if (value === undefined || value.startsWith("--")) return null;
    }
    if (key in given) return null;
    given[key] = value;
  }
  const { harness, sessionId, databaseUrl } = given;
  if (harness === undefined || sessionId === undefined) return null;
  if (!isSupportedHarness(harness) || !isValidSessionId(sessionId)) return null;
  if (databaseUrl !== undefined && !/^(file:.+|postgres(ql)?:\/\/.+)$/.test(databaseUrl)) return null;
  return { harness, sessionId, databaseUrl: databaseUrl ?? null };
}

export type MetadataResult = { status: "known"; state: LabelState } | { status: "missing" } | { status: "unavailable" };

/** The output line for a valid request. Missing and unavailable keep only the requested ids. */
export function metadataLine(request: MetadataRequest, result: MetadataResult): string {
  const state = result.status === "known" ? result.state : null;
  const line = `${JSON.stringify({
    version: 1,
    status: result.status,
    harness: request.harness,
    session_id: request.sessionId,
    label: state?.label ?? "",
    completion_id: state?.completionId ?? "",
    source_generation: formatGeneration(state?.sourceGeneration ?? 0n),
    label_generation: formatGeneration(state?.labelGeneration ?? 0n),
  })}\n`;
  // Cannot happen with validated fields (the longest is well under 1 KiB); refuse rather than overflow.
  if (Buffer.byteLength(line) > METADATA_MAX_BYTES) return metadataLine(request, { status: "unavailable" });
  return line;
}
