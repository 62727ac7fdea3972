// A real Herald server process for SDK tests, on a fixed port so it can be restarted in place.
import { createTempSqlite, freePort, heraldCli, type SpawnedHerald, spawnHerald } from "@herald/testkit";
import { createPersonClient, createProducerClient, type PersonClient, type ProducerClient } from "../../src/index.ts";

export { eventually, untilMarker } from "@herald/testkit";

export interface TestServer {
  url: string;
  producerKey: string;
  person: { id: string; token: string };
  newPerson(name: string): Promise<{ id: string; token: string }>;
  restart(): Promise<void>;
  kill(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startServer(extraEnv: Record<string, string> = {}): Promise<TestServer> {
  const store = createTempSqlite("herald-sdk-");
  const env = { DATABASE_URL: store.url, PORT: String(await freePort()), HERALD_SNOOZE_INTERVAL_MS: "100", ...extraEnv };
  const cli = heraldCli(env);
  const producerKey = await cli.createProducerKey("sdk-tests");
  const newPerson = (name: string) => cli.createPerson(name);
  const person = await newPerson("Ada");
  let herald: SpawnedHerald = await spawnHerald({ env });
  const start = async () => {
    herald = await spawnHerald({ env });
  };
  const kill = () => herald.kill();

  return {
    url: herald.url,
    producerKey,
    person,
    newPerson,
    start,
    kill,
    async restart() {
      await kill();
      await start();
    },
    async close() {
      await kill();
      store.remove();
    },
  };
}

export interface TestClients {
  server: TestServer;
  /** The SDK as a producer (the server's producer key). */
  producer: ProducerClient;
  /** The SDK as the demo person, Ada. */
  ada: PersonClient;
  close(): Promise<void>;
}

/** A server and the two clients most suites need: one producer and one person. */
export async function startClients(): Promise<TestClients> {
  const server = await startServer();
  const producer = createProducerClient({ url: server.url, token: server.producerKey });
  const ada = createPersonClient({ url: server.url, token: server.person.token });
  return {
    server,
    producer,
    ada,
    async close() {
      producer.close();
      ada.close();
      await server.close();
    },
  };
}
