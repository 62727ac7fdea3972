// Herald as an operator runs it: credentials from the `herald` CLI, then `herald serve` in its own
// process on a fresh SQLite file (the embedded default). Every subscriber is a device of one
// person; every event is an APPLICATION-scope notification, which every person receives (the
// broadcast case, and one without a per-delivery DELIVERED write: that is PERSON/SESSION only).
import { appendFileSync } from "node:fs";
import { createTempSqlite, exited, type SpawnedHerald, spawnHerald } from "@herald/testkit";
import { benchCli, liftedLimits } from "../herald-process.ts";
import { spawnTracked } from "../processes.ts";
import { fanoutConfig } from "./config.ts";
import { type FanoutServer, type StartOptions } from "./fanout-server.ts";
import { HttpPoster } from "./http-post.ts";
import { marker } from "./worker-protocol.ts";

export const heraldSubscription = "subscription { notificationEvents { cursor type notification { id title } } }";

const publishMutation = `mutation Publish($input: PublishNotificationInput!) {
  publishNotification(input: $input) { __typename ... on UserError { message } }
}`;

export async function startHerald(options: StartOptions): Promise<FanoutServer> {
  const store = createTempSqlite("herald-fanout-");
  const databaseUrl = store.url;
  let herald: SpawnedHerald | undefined;
  let poster: HttpPoster | undefined;
  const cleanUp = async () => {
    poster?.close();
    await herald?.stop();
    store.remove();
  };
  try {
    // One at a time: the first command creates the database and applies the migrations.
    const cli = benchCli(databaseUrl);
    const personToken = (await cli.createPerson("Fan-out subscriber")).token;
    const producerKey = await cli.createProducerKey("fanout-bench");

    // The binary itself, as an operator starts it: its shebang carries the server's V8 flags.
    // FANOUT_HERALD_NODE_ARGS: extra node flags for the server only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p"
    // (most are refused in NODE_OPTIONS, so node is then started by hand with the shebang's flags too).
    const nodeArgs = (process.env.FANOUT_HERALD_NODE_ARGS ?? "").split(" ").filter(Boolean);
    // FANOUT_HERALD_STDOUT: a file that gets the server's stdout (e.g. --trace-gc output).
    const copy = process.env.FANOUT_HERALD_STDOUT;
    herald = await spawnHerald({
      env: { DATABASE_URL: databaseUrl, ...liftedLimits },
      nodeArgs,
      spawn: (command, args, env) => spawnTracked(command, args, { cpus: options.serverCpus || undefined, openFiles: options.openFiles, env }),
      startTimeoutMs: fanoutConfig.serverStartTimeoutMs,
      onOutput: (text, stream) => {
        if (stream === "stdout" && copy) appendFileSync(copy, text);
        // Warnings stay visible (LOG_LEVEL=warn) without flooding the output.
        if (stream === "stderr") process.stderr.write(`    [herald] ${text}`);
      },
    });
    const url = new URL(herald.url);
    const pid = herald.process.pid!;
    poster = new HttpPoster(url, { "content-type": "application/json", authorization: `Bearer ${producerKey}` }, options.maxPublishers);
    const publisher = poster;

    const body = JSON.stringify({ query: heraldSubscription });
    const streamPath = `${url.pathname}/stream`;
    const request =
      `POST ${streamPath} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n` +
      `Authorization: Bearer ${personToken}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

    return {
      name: "herald",
      description: `herald serve (SQLite, ${databaseUrl.slice(5)}); APPLICATION-scope notifications, one person with N subscriptions at POST ${streamPath} (graphql-sse distinct connections)`,
      version: `Herald ${process.env.npm_package_version ?? "server"} on Node ${process.version}`,
      pid,
      subscribe: { host: url.hostname, port: Number(url.port), request },
      async publish(seq, sendMicros) {
        const input = { scope: "APPLICATION", key: `fanout-${seq}`, title: marker(seq, sendMicros), source: { plugin: "fanout-bench" } };
        const response = await publisher.post(JSON.stringify({ query: publishMutation, variables: { input } }));
        if (response.status !== 200 || !response.body.includes('"__typename":"Notification"')) {
          throw new Error(`publish failed: HTTP ${response.status} ${response.body.slice(0, 200)}`);
        }
      },
      async stop() {
        const child = herald?.process;
        if (child && exited(child)) options.log(`herald had exited by itself (${child.signalCode ?? `exit ${child.exitCode}`})`);
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
