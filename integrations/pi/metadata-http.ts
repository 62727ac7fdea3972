// The session's label read over HTTP, for a Pi whose Herald is remote (HERALD_URL set and no
// DATABASE_URL: `herald session-metadata` reads a local store, which this machine does not have).
// One GraphQL `session(harness, sessionId)` query with the producer key, within the same bounds
// as the command (2 s, 2048 bytes), turned into the command's own line so that one parser
// (parseMetadata) judges both. Every failure is an empty answer (null), never an exception.
import { readAtMost } from "../shared/report-exchange.ts";
import { HARNESS, METADATA_MAX_BYTES } from "./label-state.ts";
import { READ_TIMEOUT_MS } from "./metadata-command.ts";

export interface RemoteMetadata {
  /** The /graphql URL of the remote Herald. */
  endpoint: string;
  key: string;
}

const SESSION = `query($harness: String!, $sessionId: String!) { session(harness: $harness, sessionId: $sessionId) { label completionId sourceGeneration labelGeneration } }`;

/** The remote Herald to read from, when the label is not in a local store; null otherwise. */
export function remoteMetadataFrom(env: NodeJS.ProcessEnv = process.env): RemoteMetadata | null {
  const url = env.HERALD_URL?.trim();
  const key = env.HERALD_PRODUCER_KEY?.trim();
  if (!url || !key || env.DATABASE_URL?.trim()) return null;
  return { endpoint: `${url.replace(/\/+$/, "").replace(/\/graphql$/, "")}/graphql`, key };
}

/** A `herald session-metadata` line for the session as the remote Herald knows it, or null. */
export async function readRemoteMetadata(remote: RemoteMetadata, sessionId: string, signal: AbortSignal): Promise<string | null> {
  if (signal.aborted) return null;
  try {
    const response = await fetch(remote.endpoint, {
      method: "POST",
      signal: AbortSignal.any([signal, AbortSignal.timeout(READ_TIMEOUT_MS)]),
      headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${remote.key}` },
      body: JSON.stringify({ query: SESSION, variables: { harness: HARNESS, sessionId } }),
    });
    const text = await readAtMost(response, METADATA_MAX_BYTES);
    if (!response.ok) return null;
    const answer = JSON.parse(text) as { data?: { session?: Record<string, unknown> | null }; errors?: unknown[] };
    if (answer.errors?.length || !answer.data) return null;
    return `${JSON.stringify(metadataLine(sessionId, answer.data.session ?? null))}\n`;
  } catch {
    return null;
  }
}

function metadataLine(sessionId: string, session: Record<string, unknown> | null) {
  const base = { version: 1, harness: HARNESS, session_id: sessionId };
  // An absent session (or one this key may not see) is "missing", as the command says for a store without it.
  if (!session) return { ...base, status: "missing", label: "", completion_id: "", source_generation: "0", label_generation: "0" };
  return {
    ...base,
    status: "known",
    label: typeof session.label === "string" ? session.label : "",
    completion_id: typeof session.completionId === "string" ? session.completionId : "",
    source_generation: String(session.sourceGeneration ?? ""),
    label_generation: String(session.labelGeneration ?? ""),
  };
}
