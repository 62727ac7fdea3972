// Herald as an operator runs it: credentials from the `herald` CLI, then `herald serve` in its own
// process on a fresh SQLite file (the embedded default). Every subscriber is a device of one
// person; every event is an APPLICATION-scope notification, which every person receives (the
// broadcast case, and one without a per-delivery DELIVERED write: that is PERSON/SESSION only).
import type { ChildProcess } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { heraldBin, heraldEnv, runCli as runHeraldCli } from "../herald-process.ts";
import { fanoutConfig } from "./config.ts";
import { type FanoutServer, type StartOptions } from "./fanout-server.ts";
import { HttpPoster } from "./http-post.ts";
import { exited, spawnTracked, stopProcess } from "./processes.ts";
import { makeTempDir, removeTempDir } from "./temp-dirs.ts";
import { marker } from "./worker-protocol.ts";

export const heraldSubscription = "subscription { notificationEvents { cursor type notification { id title } } }";

const publishMutation = `mutation Publish($input: PublishNotificationInput!) {
  publishNotification(input: $input) { __typename ... on UserError { message } }
}`;

/** The node flags on the binary's `#!/usr/bin/env -S node ...` line. */
function shebangNodeFlags(): string[] {
  const words = readFileSync(heraldBin, "utf8").split("\n", 1)[0]!.split(/\s+/);
  return words.slice(words.indexOf("node") + 1);
}

/** A CLI command whose process the fan-out run tracks, so an interrupted run kills it too. */
const runCli = (databaseUrl: string, args: string[]) => runHeraldCli(databaseUrl, args, (command, argv, env) => spawnTracked(command, argv, { env }));

function waitForUrl(child: ChildProcess): Promise<URL> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`${why}\n${stderr}`));
    };
    const timer = setTimeout(() => fail("Herald did not start in time"), fanoutConfig.serverStartTimeoutMs);
    child.stderr!.on("data", (c: Buffer) => {
      stderr += c.toString();
      // Warnings stay visible (LOG_LEVEL=warn) without flooding the output.
      process.stderr.write(`    [herald] ${c.toString()}`);
    });
    // FANOUT_HERALD_STDOUT: a file that gets the server's stdout (e.g. --trace-gc output).
    const copy = process.env.FANOUT_HERALD_STDOUT;
    child.stdout!.on("data", (c: Buffer) => {
      if (copy) appendFileSync(copy, c);
      if (stdout.length > 100_000) return;
      stdout += c.toString();
      const match = /Herald GraphQL \(GraphiQL in a browser\): (http:\/\/127\.0\.0\.1:\d+\/graphql)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(new URL(match[1]!));
      }
    });
    child.once("exit", (code, signal) => fail(`Herald exited during start (${signal ?? `exit ${code}`})`));
  });
}

export async function startHerald(options: StartOptions): Promise<FanoutServer> {
  const dir = makeTempDir("herald-fanout-");
  const databaseUrl = `file:${join(dir, "herald.db")}`;
  let child: ChildProcess | undefined;
  let poster: HttpPoster | undefined;
  const cleanUp = async () => {
    poster?.close();
    if (child) await stopProcess(child);
    removeTempDir(dir);
  };
  try {
    // One at a time: the first command creates the database and applies the migrations.
    const personLines = await runCli(databaseUrl, ["person", "create", "--name", "Fan-out subscriber"]);
    const personToken = personLines.at(-1)!;
    const producerKey = (await runCli(databaseUrl, ["key", "create", "--name", "fanout-bench"])).at(-1)!;
    if (!personToken.startsWith("herald_pt_") || !producerKey.startsWith("herald_pk_")) throw new Error("unexpected output of the herald CLI");

    // The binary itself, as an operator starts it: its shebang carries the server's V8 flags.
    // FANOUT_HERALD_NODE_ARGS: extra node flags for the server only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p"
    // (most are refused in NODE_OPTIONS, so node is then started by hand with the shebang's flags too).
    const nodeArgs = (process.env.FANOUT_HERALD_NODE_ARGS ?? "").split(" ").filter(Boolean);
    const [command, ...args] = nodeArgs.length > 0 ? [process.execPath, ...shebangNodeFlags(), ...nodeArgs, heraldBin, "serve"] : [heraldBin, "serve"];
    child = spawnTracked(command!, args, { cpus: options.serverCpus || undefined, openFiles: options.openFiles, env: heraldEnv(databaseUrl) });
    const url = await waitForUrl(child);
    const pid = child.pid!;
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
        if (child && exited(child)) options.log(`herald had exited by itself (${child.signalCode ?? `exit ${child.exitCode}`})`);
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
