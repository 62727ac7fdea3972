// Publish throughput: Herald's publishNotification over HTTP against the same writes done by the
// raw driver. Herald's figure includes everything a producer pays for: HTTP, GraphQL parsing and
// validation, the producer-key look-up, input validation, the addressee check, the active-key read
// and retry logic; the raw figure is only the transaction's writes.
import { benchConfig } from "./config.ts";
import type { GraphQLClient } from "./graphql-client.ts";
import { round, runConcurrent, type Throughput } from "./load.ts";
import type { RawDriver } from "./raw-driver.ts";
import { newId, published } from "./rows.ts";

const publishMutation = /* GraphQL */ `
  mutation Publish($input: PublishNotificationInput!) {
    publishNotification(input: $input) {
      __typename
      ... on Notification {
        id
        revision
      }
      ... on UserError {
        message
      }
    }
  }
`;

interface Published {
  id: string;
  revision: number;
}

async function publish(client: GraphQLClient, personId: string, key: string, title: string): Promise<Published> {
  const input = { scope: "PERSON", personId, key, title, body: "Published by the benchmark.", source: { plugin: "bench" } };
  const data = await client.post<{ publishNotification: Published & { __typename: string; message?: string } }>(publishMutation, { input });
  const result = data.publishNotification;
  if (result.__typename !== "Notification") throw new Error(`${result.__typename}: ${result.message}`);
  return result;
}

export interface PublishComparison {
  herald: Throughput;
  /** The same mutation against the bare graphql-yoga server (bare-server.ts): the framework floor. */
  bare: Throughput;
  /** Herald ops/s divided by the floor's: the goal is at least 0.5. */
  heraldOverBare: number;
  raw: Throughput & { driver: string };
  /** Herald ops/s divided by raw ops/s: 1 would mean Herald adds nothing. */
  heraldOverRaw: number;
  /** Same-key only: the revision must have grown by exactly the number of successful updates. */
  revisionCheck?: { herald: RevisionCheck; bare: RevisionCheck; raw: RevisionCheck };
}

interface RevisionCheck {
  expected: number;
  actual: number | null;
  ok: boolean;
}

interface Context {
  producer: GraphQLClient;
  bare: GraphQLClient;
  raw: RawDriver;
  addresseeId: string;
  log: (line: string) => void;
}

const { publishOps, warmupOps, concurrency } = benchConfig;

/** (a) Every publish names a new key: one INSERT plus its event. */
export async function benchNewKeys({ producer, bare: bareClient, raw, addresseeId, log }: Context): Promise<PublishComparison> {
  log(`Herald publish, new keys: ${warmupOps} warm-up + ${publishOps} measured, ${concurrency} in flight`);
  await runConcurrent(warmupOps, concurrency, (i) => publish(producer, addresseeId, `warm-new-${i}`, `Warm-up ${i}`));
  const herald = await runConcurrent(publishOps, concurrency, (i) => publish(producer, addresseeId, `new-${i}`, `Bench notification ${i}`));
  log(`  ${herald.opsPerSec} ops/s (${herald.failed} failed)`);

  log(`Bare graphql-yoga + ${raw.name}, new keys: the same load`);
  await runConcurrent(warmupOps, concurrency, (i) => publish(bareClient, addresseeId, `bare-warm-new-${i}`, `Warm-up ${i}`));
  const bare = await runConcurrent(publishOps, concurrency, (i) => publish(bareClient, addresseeId, `bare-new-${i}`, `Bench notification ${i}`));
  log(`  ${bare.opsPerSec} ops/s (${bare.failed} failed); Herald/floor ${round(herald.opsPerSec / bare.opsPerSec, 3)}`);

  log(`Raw insert + event + counter: ${raw.name}`);
  // Built before the clock runs: the raw figure is the writes, as Herald's is everything after the request.
  const rows = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) =>
      published({
        id: newId(),
        personId: addresseeId,
        key: `${prefix}${i}`,
        title: `Bench notification ${i}`,
        body: "Published by the benchmark.",
        now: new Date(),
      }),
    );
  const warm = rows("raw-warm-new-", warmupOps);
  await runConcurrent(warmupOps, raw.concurrency, (i) => raw.insertPublished(warm[i]!));
  const measured = rows("raw-new-", publishOps);
  const rawResult = await runConcurrent(publishOps, raw.concurrency, (i) => raw.insertPublished(measured[i]!));
  log(`  ${rawResult.opsPerSec} ops/s (${rawResult.failed} failed)`);

  return {
    herald,
    bare,
    heraldOverBare: round(herald.opsPerSec / bare.opsPerSec, 3),
    raw: { ...rawResult, driver: raw.name },
    heraldOverRaw: round(herald.opsPerSec / rawResult.opsPerSec, 3),
  };
}

/**
 * (b) Every publish names the same key: an UPDATE of one row (revision + 1) plus its event. All
 * operations in flight target that one row, so this also shows what contention costs.
 */
export async function benchSameKey({ producer, bare: bareClient, raw, addresseeId, log }: Context): Promise<PublishComparison> {
  log(`Herald publish, one key: ${warmupOps} warm-up + ${publishOps} measured, ${concurrency} in flight`);
  const first = await publish(producer, addresseeId, "same-key", "Same key 0");
  const heraldWarm = await runConcurrent(warmupOps, concurrency, (i) => publish(producer, addresseeId, "same-key", `Same key warm-up ${i}`));
  const herald = await runConcurrent(publishOps, concurrency, (i) => publish(producer, addresseeId, "same-key", `Same key ${i}`));
  const heraldCheck = await revisionCheck(raw, first.id, 1 + heraldWarm.succeeded + herald.succeeded);
  log(
    `  ${herald.opsPerSec} ops/s (${herald.failed} failed${herald.firstError ? `, e.g. ${herald.firstError}` : ""}); revision ${heraldCheck.actual}, expected ${heraldCheck.expected}`,
  );

  log(`Bare graphql-yoga + ${raw.name}, one key: the same load`);
  const bareFirst = await publish(bareClient, addresseeId, "bare-same-key", "Same key 0");
  const bareWarm = await runConcurrent(warmupOps, concurrency, (i) => publish(bareClient, addresseeId, "bare-same-key", `Same key warm-up ${i}`));
  const bare = await runConcurrent(publishOps, concurrency, (i) => publish(bareClient, addresseeId, "bare-same-key", `Same key ${i}`));
  const bareCheck = await revisionCheck(raw, bareFirst.id, 1 + bareWarm.succeeded + bare.succeeded);
  log(`  ${bare.opsPerSec} ops/s (${bare.failed} failed); revision ${bareCheck.actual}, expected ${bareCheck.expected}`);

  log(`Raw update + event + counter: ${raw.name}`);
  const id = newId();
  const revisionOf = (title: string) =>
    published({ id, personId: addresseeId, key: "raw-same-key", title, body: "Published by the benchmark.", now: new Date() });
  await raw.insertPublished(revisionOf("Same key 0"));
  const warm = Array.from({ length: warmupOps }, (_, i) => revisionOf(`Same key warm-up ${i}`));
  const rawWarm = await runConcurrent(warmupOps, raw.concurrency, (i) => raw.updatePublished(warm[i]!));
  const measured = Array.from({ length: publishOps }, (_, i) => revisionOf(`Same key ${i}`));
  const rawResult = await runConcurrent(publishOps, raw.concurrency, (i) => raw.updatePublished(measured[i]!));
  const rawCheck = await revisionCheck(raw, id, 1 + rawWarm.succeeded + rawResult.succeeded);
  log(`  ${rawResult.opsPerSec} ops/s (${rawResult.failed} failed); revision ${rawCheck.actual}, expected ${rawCheck.expected}`);

  return {
    herald,
    bare,
    heraldOverBare: round(herald.opsPerSec / bare.opsPerSec, 3),
    raw: { ...rawResult, driver: raw.name },
    heraldOverRaw: round(herald.opsPerSec / rawResult.opsPerSec, 3),
    revisionCheck: { herald: heraldCheck, bare: bareCheck, raw: rawCheck },
  };
}

async function revisionCheck(raw: RawDriver, id: string, expected: number): Promise<RevisionCheck> {
  const actual = await raw.revisionOf(id);
  return { expected, actual, ok: actual === expected };
}
