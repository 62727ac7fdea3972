// Starts a real Herald (migrated store, HTTP server on a free port) for one test file.
import { pino } from "pino";
import { createHerald, type Herald, type HeraldOptions, startServer } from "@herald/server/app";
import type { Tuning } from "@herald/server/config";
import { errorCode, gql, resultFields } from "./graphql.ts";
import type { ProviderCase } from "./providers.ts";
import { TestClock } from "./clock.ts";
import { eventually } from "@herald/testkit";

export interface TestHerald {
  url: string;
  /** The store's URL, for `herald` commands against the same database. */
  databaseUrl: string;
  herald: Herald;
  clock: TestClock;
  producerKey: string;
  newPerson(name?: string): Promise<{ id: string; token: string }>;
  publish(input: Record<string, unknown>, key?: string): Promise<any>;
  /** Waits until a live-only stream of this person (or, without one, a producer's actionInvocations) is attached. */
  attached(personId?: string): Promise<void>;
  close(): Promise<void>;
}

// HERALD_TEST_LOG=debug shows server logs while debugging a test.
const silent = pino({ level: process.env.HERALD_TEST_LOG ?? "silent" });

export async function startHerald(
  provider: ProviderCase,
  tuning: Partial<Tuning> = {},
  options: Partial<Pick<HeraldOptions, "labeler" | "logger" | "channelAgent" | "deliveryRandom">> = {},
): Promise<TestHerald> {
  const database = await provider.createDatabase();
  const clock = new TestClock();
  const herald = await createHerald({
    databaseUrl: database.url,
    logger: options.logger ?? silent,
    clock,
    tuning,
    ...(options.labeler ? { labeler: options.labeler } : {}),
    ...(options.channelAgent ? { channelAgent: options.channelAgent } : {}),
    ...(options.deliveryRandom ? { deliveryRandom: options.deliveryRandom } : {}),
  });
  const running = await startServer(herald, 0, "127.0.0.1");
  const url = `${running.url}/graphql`;
  const producerKey = (await herald.services.auth.issueProducerKey("tests")).secret;

  const newPerson = async (name = "Ada") => {
    const created = await gql(url, producerKey, `mutation($n: String!) { createPerson(input: { name: $n }) { id } }`, { n: name });
    const id = created.data.createPerson.id as string;
    const issued = await gql(url, producerKey, `mutation($id: ID!) { issuePersonToken(personId: $id) { token } }`, { id });
    return { id, token: issued.data.issuePersonToken.token as string };
  };

  const publish = async (input: Record<string, unknown>, key = producerKey) => {
    clock.tick();
    const r = await gql(url, key, `mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { ${resultFields("publish")} } }`, {
      input: { source: { plugin: "tests" }, ...input },
    });
    if (r.errors) throw new Error(`publish failed: ${JSON.stringify(r.errors)} (${errorCode(r)})`);
    return r.data.publishNotification;
  };

  return {
    url,
    databaseUrl: database.url,
    herald,
    clock,
    producerKey,
    newPerson,
    publish,
    attached: (personId) =>
      eventually(
        () => (personId ? herald.feed.listenersOf(personId) : herald.feed.invocationListenerCount) > 0,
        10_000,
        `a stream of ${personId ?? "the producer"} to attach`,
      ),
    async close() {
      await running.close();
      await herald.close();
      await database.drop();
    },
  };
}
