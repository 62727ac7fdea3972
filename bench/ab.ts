// `npm run bench:ab -- <checkout A> <checkout B>`: two builds of Herald served side by side on
// SQLite, the same load sent to each in alternating blocks (publishes with 8 in flight, then
// first-page lists one at a time), the order swapped every round. Reports each server's
// main-thread CPU per operation (from /proc) and its throughput, and B over A. On a shared 2-core
// machine whose speed drifts from one minute to the next, two runs of the store benchmark one
// after the other differ by more than most changes; alternating blocks within one run does not.
// Each checkout must be installed and built (npm ci && npm run build). Not part of the tests.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { GraphQLClient } from "./graphql-client.ts";
import { liftedLimits } from "./herald-process.ts";

const rounds = Number(process.env.AB_ROUNDS ?? 8);
const publishBlock = Number(process.env.AB_PUBLISH_BLOCK ?? 300);
const listBlock = Number(process.env.AB_LIST_BLOCK ?? 100);
const IN_FLIGHT = 8;

interface Figure {
  cpuMs: number;
  wallMs: number;
  ops: number;
}

interface Server {
  root: string;
  producer: GraphQLClient;
  reader: GraphQLClient;
  personId: string;
  /** CPU time of the processes' main threads so far, ms. */
  cpuMs(): number;
  published: number;
  publish: Figure;
  list: Figure;
  stop(): Promise<void>;
}

/** User plus system time of each process's main thread (the one that serves requests), ms. */
function mainThreadCpuMs(child: ChildProcess): number {
  const children = spawnSync("pgrep", ["-P", String(child.pid)], { encoding: "utf8" })
    .stdout.trim()
    .split("\n")
    .filter(Boolean)
    .map(Number);
  let ticks = 0;
  for (const pid of [child.pid!, ...children]) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks * (1000 / 100); // USER_HZ
}

async function start(checkout: string): Promise<Server> {
  const root = resolve(checkout);
  const dir = mkdtempSync(join(tmpdir(), "herald-ab-"));
  const env = {
    ...process.env,
    DATABASE_URL: `file:${join(dir, "herald.db")}`,
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    ...liftedLimits,
  };
  const cli = (...args: string[]) => {
    const run = spawnSync(join(root, "node_modules/.bin/herald"), args, { cwd: root, env, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`herald ${args.join(" ")} in ${root}: ${run.stderr}`);
    return run.stdout.trim().split("\n").pop()!;
  };
  cli("migrate");
  const producerKey = cli("key", "create", "--name", "bench");
  const readerToken = cli("person", "create", "--name", "Ada");
  const { DatabaseSync } = createRequire(join(root, "server/package.json"))("@photostructure/sqlite");
  const db = new DatabaseSync(join(dir, "herald.db"));
  const personId = db.prepare(`SELECT id FROM "Person" LIMIT 1`).get().id as string;
  db.close();
  const child = spawn(join(root, "server/bin/herald.js"), ["serve"], { cwd: root, detached: true, env: { ...env, PORT: "0" } });
  const url = await new Promise<string>((ok, fail) => {
    let output = "";
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const found = output.match(/http:\/\/127\.0\.0\.1:\d+\/graphql/);
      if (found) ok(found[0]);
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => fail(new Error(`herald serve in ${root} exited (${code}): ${output.slice(-400)}`)));
  });
  const producer = new GraphQLClient(new URL(url), producerKey);
  const reader = new GraphQLClient(new URL(url), readerToken);
  return {
    root,
    producer,
    reader,
    personId,
    cpuMs: () => mainThreadCpuMs(child),
    published: 0,
    publish: { cpuMs: 0, wallMs: 0, ops: 0 },
    list: { cpuMs: 0, wallMs: 0, ops: 0 },
    stop: async () => {
      producer.close();
      reader.close();
      const exited = new Promise((done) => child.once("exit", done));
      process.kill(-child.pid!, "SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const PUBLISH = `mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { __typename ... on Notification { id revision status } } }`;
const LIST = `{ notifications(first: 20) { edges { cursor node { id title status } } } }`;

async function publishes(server: Server, count: number): Promise<void> {
  let left = count;
  const worker = async () => {
    while (left-- > 0) {
      const i = server.published++;
      const input = {
        scope: "PERSON",
        personId: server.personId,
        key: `k-${i}`,
        title: `Build ${i} failed`,
        body: "See the logs",
        severity: "ERROR",
        source: { plugin: "bench" },
      };
      const data = await server.producer.post<{ publishNotification: { id?: string } }>(PUBLISH, { input });
      if (!data.publishNotification.id) throw new Error(`publish failed: ${JSON.stringify(data).slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

async function lists(server: Server, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const data = await server.reader.post<{ notifications: { edges: unknown[] } }>(LIST);
    if (data.notifications.edges.length !== 20) throw new Error(`list failed: ${JSON.stringify(data).slice(0, 300)}`);
  }
}

async function measured(server: Server, figure: Figure, load: (server: Server, count: number) => Promise<void>, count: number) {
  const cpu = server.cpuMs();
  const started = performance.now();
  await load(server, count);
  figure.wallMs += performance.now() - started;
  figure.cpuMs += server.cpuMs() - cpu;
  figure.ops += count;
}

const [checkoutA, checkoutB] = process.argv.slice(2);
if (!checkoutA || !checkoutB) {
  console.error("usage: npm run bench:ab -- <checkout A> <checkout B>   (each installed and built)");
  process.exit(2);
}
const a = await start(checkoutA);
const b = await start(checkoutB);
try {
  for (const server of [a, b]) {
    await publishes(server, 300);
    await lists(server, 50);
  }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [a, b] : [b, a];
    for (const server of order) await measured(server, server.publish, publishes, publishBlock);
    for (const server of order) await measured(server, server.list, lists, listBlock);
  }
  const cpu = (f: Figure) => (f.cpuMs / f.ops) * 1000;
  const rate = (f: Figure) => f.ops / (f.wallMs / 1000);
  for (const [name, s] of [["A", a] as const, ["B", b] as const]) {
    console.log(
      `${name} ${s.root}: publish ${cpu(s.publish).toFixed(0)} µs CPU/op, ${rate(s.publish).toFixed(0)} ops/s | list ${cpu(s.list).toFixed(0)} µs CPU/op, ${rate(s.list).toFixed(0)} ops/s`,
    );
  }
  console.log(
    `B/A main-thread CPU per op: publish ${(cpu(b.publish) / cpu(a.publish)).toFixed(3)}, list ${(cpu(b.list) / cpu(a.list)).toFixed(3)}; ` +
      `B/A throughput: publish ${(rate(b.publish) / rate(a.publish)).toFixed(3)}, list ${(rate(b.list) / rate(a.list)).toFixed(3)}`,
  );
} finally {
  await a.stop();
  await b.stop();
}
