// markNotificationsSeen of a batch of ids (50), one call at a time: Herald against the bare
// graphql-yoga floor. Each call names ids nobody has marked yet, so every call changes every row
// (a repeat of seen ids would measure the no-op path). The goal is absolute: p50 <= 25 ms.
import { benchConfig } from "./config.ts";
import type { GraphQLClient } from "./graphql-client.ts";
import { type Percentiles, round, sampleLatency } from "./load.ts";

const seenMutation = /* GraphQL */ `
  mutation Seen($ids: [ID!]!) {
    markNotificationsSeen(ids: $ids) {
      id
      status
    }
  }
`;

export interface SeenResult {
  batch: number;
  herald: Percentiles;
  bare: Percentiles;
  /** Herald p50 over the floor's p50 (above 1: Herald is slower). */
  heraldOverBareP50: number;
  /** Every measured call of both returned its whole batch as SEEN. */
  allChanged: boolean;
}

interface Context {
  reader: GraphQLClient;
  bare: GraphQLClient;
  /** Unseen ids of the reader, enough for both sides' calls. */
  unseenIds: readonly string[];
  log: (line: string) => void;
}

const { seenBatch, seenSamples, seenWarmup } = benchConfig;

export async function benchSeen({ reader, bare, unseenIds, log }: Context): Promise<SeenResult> {
  const calls = seenSamples + seenWarmup;
  if (unseenIds.length < 2 * calls * seenBatch)
    throw new Error(`the seen scenario needs ${2 * calls * seenBatch} unseen ids, the walk gave ${unseenIds.length}`);
  let allChanged = true;
  const side = (client: GraphQLClient, offset: number) => {
    let call = 0;
    return async () => {
      const ids = unseenIds.slice(offset + call * seenBatch, offset + (call + 1) * seenBatch);
      call++;
      const data = await client.post<{ markNotificationsSeen: { id: string; status: string }[] }>(seenMutation, { ids });
      const changed = data.markNotificationsSeen.filter((r) => r.status === "SEEN").length;
      if (changed !== ids.length) allChanged = false;
    };
  };
  log(`markNotificationsSeen of ${seenBatch} ids: ${seenSamples} sequential calls after ${seenWarmup} warm-up, Herald then the floor`);
  const herald = await sampleLatency(seenSamples, seenWarmup, side(reader, 0));
  const bareLatency = await sampleLatency(seenSamples, seenWarmup, side(bare, calls * seenBatch));
  log(`  Herald p50 ${herald.p50Ms} ms, p95 ${herald.p95Ms} ms; floor p50 ${bareLatency.p50Ms} ms; every call changed its batch: ${allChanged}`);
  return { batch: seenBatch, herald, bare: bareLatency, heraldOverBareP50: round(herald.p50Ms / bareLatency.p50Ms, 2), allChanged };
}
