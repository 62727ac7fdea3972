// `herald session-metadata --harness H --session-id ID [--database-url URL]`: one session's
// label state as one JSON line on stdout (exit 0), or {"version":1,"status":"invalid_request"}
// (exit 2). Nothing on stderr, stdin unread, the store never written. Started by bin/herald.js
// directly, so none of the server's start-up (folders, WAL, migrations, secrets) runs.
import { INVALID_REQUEST, metadataLine, parseMetadataArgs } from "../domain/session-metadata.ts";
import { resolveDatabaseUrl } from "../storage/connection/database-url.ts";
import { readSessionMetadata } from "../storage/sessions/session-metadata-reader.ts";

async function answer(args: readonly string[]): Promise<{ line: string; code: number }> {
  const request = parseMetadataArgs(args);
  if (!request) return { line: INVALID_REQUEST, code: 2 };
  const url = resolveDatabaseUrl(request.databaseUrl ?? process.env.DATABASE_URL);
  // Every failure (a DATABASE_URL of another kind included) becomes a status, never an exception.
  const result = await readSessionMetadata(url, request.harness, request.sessionId);
  return { line: metadataLine(request, result), code: 0 };
}

const { line, code } = await answer(process.argv.slice(3));
process.stdout.write(line, () => process.exit(code));
