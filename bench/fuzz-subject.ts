// The Herald that bench:fuzz-memory fuzzes: started on a database, with a producer key, a person
// and their token, and one notification; its heap read settled after collection. Run in the
// bench's own process (--together) or alone in a child (fuzz-memory-server.ts), where the heap
// read is the server's and nothing of the fuzzer's.
import { join } from "node:path";
import { writeHeapSnapshot } from "node:v8";
import { createHerald, startServer } from "@herald/server/app";
import { createLogger } from "@herald/server/logger";
import { settledHeap } from "./settled-heap.ts";

export interface FuzzSubject {
  url: string;
  producerKey: string;
  personToken: string;
  /** The settled heap of the process the server runs in, in bytes. */
  heap(): Promise<number>;
  /** Writes a V8 heap snapshot of that process to DIR/NAME.heapsnapshot; returns its path. */
  snapshot(dir: string, name: string): Promise<string>;
  close(): Promise<void>;
}

export async function startSubject(databaseUrl: string): Promise<FuzzSubject> {
  const herald = await createHerald({
    databaseUrl,
    logger: createLogger("silent"),
    tuning: { maxBufferedBytes: 64 * 1024, heartbeatMs: 60_000, maxStreamsPerCredential: 1_000, rateLimitPoints: 1_000_000 },
  });
  const server = await startServer(herald, 0, "127.0.0.1");
  const url = `${server.url}/graphql`;
  const producerKey = (await herald.services.auth.issueProducerKey("fuzz-memory-bench")).secret;
  const call = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return ((await response.json()) as { data: any }).data;
  };
  const person = (await call(producerKey, `mutation { createPerson(input: { name: "Ada" }) { id } }`)).createPerson.id as string;
  const personToken = (await call(producerKey, `mutation($id: ID!) { issuePersonToken(personId: $id) { token } }`, { id: person })).issuePersonToken
    .token as string;
  await herald.services.notifications.publish({ scope: "PERSON", personId: person, key: "seed", title: "Seed", source: { plugin: "bench" } });
  return {
    url,
    producerKey,
    personToken,
    heap: settledHeap,
    // Synchronous in V8: no request is served while it is written.
    snapshot: async (dir, name) => writeHeapSnapshot(join(dir, `${name}.heapsnapshot`)),
    close: async () => {
      await server.close();
      await herald.close();
    },
  };
}
