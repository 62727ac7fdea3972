// Seeded fuzzing over real HTTP, for the benchmarks that measure what it leaves behind
// (retention.ts, fuzz-memory.ts): JSON, GET and multipart requests with random credentials, to
// /graphql and /graphql/stream (a stream is read to its first message, then dropped).
import type { GraphQLSchema } from "graphql";
import { fuzzGetParams, fuzzRequest, fuzzUpload, seededRandom } from "../server/test/security/fuzz.ts";

export interface FuzzTarget {
  url: string;
  streamUrl: string;
  schema: GraphQLSchema;
  /** Sent at random: none, real ones and forged ones. */
  credentials: (string | null)[];
}

export async function fuzzCases(to: FuzzTarget, cases: number, seed: number): Promise<void> {
  const { url, streamUrl, schema, credentials } = to;
  const r = seededRandom(seed);
  for (let i = 0; i < cases; i++) {
    const request = fuzzRequest(r, schema);
    const token = r.pick(credentials);
    const shape = r.chance(0.15) ? "upload" : r.chance(0.15) ? "get" : "json";
    const toStream = shape !== "upload" && r.chance(0.4);
    const controller = new AbortController();
    const authorization: Record<string, string> = token ? { authorization: token.startsWith("Basic") ? token : `Bearer ${token}` } : {};
    const accept = toStream ? "text/event-stream" : "application/json";
    const target = toStream ? streamUrl : url;
    const response =
      shape === "upload"
        ? await fetch(target, { method: "POST", headers: authorization, body: fuzzUpload(r), signal: controller.signal })
        : shape === "get"
          ? await fetch(`${target}?${fuzzGetParams(r)}`, { headers: { accept, ...authorization }, signal: controller.signal })
          : await fetch(target, {
              method: "POST",
              headers: { "content-type": "application/json", accept, ...authorization },
              body: JSON.stringify({ query: request.query, variables: request.variables }),
              signal: controller.signal,
            });
    if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
      await response.body!.getReader().read();
      controller.abort();
    } else {
      await response.text();
    }
  }
}
