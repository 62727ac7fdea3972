// Start-up of the `herald` command: a bare `node -e 0`, the read-only metadata query, a producer's
// `publish` and each agent harness's hook entry (`herald hook codex` and `herald hook claude-code`,
// a finished turn each) against a running server, and `herald serve` to its ready line and first answer.
// Each is measured compiled (the launcher and dist/, as shipped) and through tsx over the same
// sources (how the launcher ran before the build), optionally also an older checkout's launcher,
// in interleaved rounds so the machine's load falls on every variant alike; the report is each
// median as a ratio to bare node's within the run.
//
//   node --import tsx bench/startup.ts [--runs 7] [--before /path/to/older/checkout]
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { createTempSqlite, ensureHeraldBuilt, heraldBin, heraldCli, heraldNodeFlags, spawnHerald, stopProcess } from "@herald/testkit";
import { createHerald } from "@herald/server/app";
import { createLogger } from "@herald/server/logger";
import { describeEnvironment } from "./environment.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "7" }, before: { type: "string" } } });
const runs = Number(values.runs);
const root = join(import.meta.dirname, "..");
const sources = join(root, "server", "src", "cli");
const tsx = ["--import", "tsx"];
/** The sources the launcher's light entry points are compiled from (the rest go through main.ts). */
const tsxEntries: Record<string, string> = { "session-metadata": "session-metadata.ts", hook: join("hook", "entry.ts") };

/** How a variant starts `herald <args>`: node's arguments. */
type Variant = { name: string; argv(args: string[]): { command: string; args: string[] } };
const variants: Variant[] = [
  { name: "compiled", argv: (args) => ({ command: process.execPath, args: [heraldBin, ...args] }) },
  {
    name: "tsx",
    argv: (args) => ({
      command: process.execPath,
      args: [...heraldNodeFlags(args[0]), ...tsx, join(sources, tsxEntries[args[0]!] ?? "main.ts"), ...args],
    }),
  },
];
// An older checkout's launcher run as its file (its shebang carried the flags then).
if (values.before) variants.push({ name: "before", argv: (args) => ({ command: join(values.before!, "server", "bin", "herald.js"), args }) });

/** Wall time of one run to its exit; `stdin`, when given, is written to it and closed (a Claude Code hook's payload). */
function timed(command: string, args: string[], env: NodeJS.ProcessEnv, stdin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: [stdin === undefined ? "ignore" : "pipe", "ignore", "pipe"] });
    if (stdin !== undefined) child.stdin!.end(stdin);
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("error", reject);
    // A hook exits 0 whatever happens; a line on stderr is how it says it could not report.
    child.once("close", (code) =>
      code === 0 && stderr === "" ? resolve(performance.now() - started) : reject(new Error(`${command} ${args.join(" ")} exited ${code}: ${stderr}`)),
    );
  });
}

/** Spawn to HERALD_READY, then the first GraphQL answer after it. */
async function timedServe(variant: Variant, env: NodeJS.ProcessEnv): Promise<{ ready: number; firstRequest: number }> {
  const { command, args } = variant.argv(["serve"]);
  const started = performance.now();
  const served = await spawnHerald({ env, spawn: (_c, _a, e) => spawn(command, args, { env: e, stdio: ["ignore", "pipe", "pipe"], detached: false }) });
  const ready = performance.now() - started;
  const asked = performance.now();
  await fetch(served.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ __typename }" }) }).then((r) =>
    r.text(),
  );
  const firstRequest = performance.now() - asked;
  await stopProcess(served.process);
  return { ready, firstRequest };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

ensureHeraldBuilt();
const store = createTempSqlite("herald-startup-");
const env = { DATABASE_URL: store.url, NODE_ENV: "production", LOG_LEVEL: "warn", HOST: "127.0.0.1", PORT: "0" };
try {
  // A known session for the metadata query, and a person and key for publish.
  const seeding = await createHerald({ databaseUrl: store.url, logger: createLogger("silent") });
  const personId = (await seeding.services.directory.createPerson({ name: "Bench" })).id;
  const { db, build, time } = seeding.database;
  const insert = build
    .insertInto("Session")
    .values({
      id: randomUUID(),
      harness: "pi",
      nativeSessionId: "bench-1",
      ownerPersonId: personId,
      label: "Measure The Start",
      completionId: "c1",
      sourceGeneration: "1",
      labelGeneration: "1",
      createdAt: time(new Date()),
    })
    .compile();
  await db.execute(insert.sql, insert.parameters);
  await seeding.close();
  const producerKey = await heraldCli(env).createProducerKey("startup bench");
  const server = await spawnHerald({ env });

  const samples = new Map<string, number[]>();
  const add = (name: string, ms: number) => samples.set(name, [...(samples.get(name) ?? []), ms]);
  const metadataArgs = ["session-metadata", "--harness", "pi", "--session-id", "bench-1"];
  const publishArgs = ["publish", "--person", personId, "--key", "bench", "--title", "Start-up", "--plugin", "bench"];
  const publishEnv = { ...env, HERALD_URL: server.origin, HERALD_PRODUCER_KEY: producerKey };
  const hookEnv = { ...publishEnv, HERALD_PERSON_ID: personId };
  // Each run is a new turn of one Codex thread, so each reports a new exchange.
  const hookArgs = (turn: string) => [
    "hook",
    "codex",
    JSON.stringify({
      type: "agent-turn-complete",
      "thread-id": "bench-thread",
      "turn-id": turn,
      cwd: "/tmp/bench",
      "input-messages": ["Measure the hook"],
      "last-assistant-message": "Measured.",
    }),
  ];
  // Claude Code's Stop: its payload on stdin, the turn in a transcript of its own per run.
  const claudeStop = (turn: string) => {
    const transcriptPath = join(dirname(store.file), `transcript-${turn}.jsonl`);
    const entry = (type: string, uuid: string, content: string) =>
      JSON.stringify({ parentUuid: null, isSidechain: false, type, message: { role: type, content }, uuid });
    writeFileSync(transcriptPath, `${entry("user", `u-${turn}`, "Measure the hook")}\n${entry("assistant", `a-${turn}`, "Measured.")}\n`);
    return JSON.stringify({ hook_event_name: "Stop", session_id: "bench-session", transcript_path: transcriptPath, cwd: "/tmp/bench" });
  };
  try {
    for (let round = 0; round < runs; round++) {
      process.stderr.write(`round ${round + 1}/${runs}\n`);
      add("bare node (node -e 0)", await timed(process.execPath, ["-e", "0"], env));
      for (const variant of variants) {
        const m = variant.argv(metadataArgs);
        add(`session-metadata, ${variant.name}`, await timed(m.command, m.args, env));
        const p = variant.argv(publishArgs);
        add(`publish, ${variant.name}`, await timed(p.command, p.args, publishEnv));
        const h = variant.argv(hookArgs(`${variant.name}-${round}`));
        add(`hook codex (a finished turn), ${variant.name}`, await timed(h.command, h.args, hookEnv));
        const c = variant.argv(["hook", "claude-code"]);
        add(`hook claude-code (a Stop), ${variant.name}`, await timed(c.command, c.args, hookEnv, claudeStop(`${variant.name}-${round}`)));
      }
    }
    await stopProcess(server.process);
    // serve costs seconds a run: fewer rounds.
    for (let round = 0; round < Math.max(3, Math.ceil(runs / 2)); round++) {
      for (const variant of variants) {
        const { ready, firstRequest } = await timedServe(variant, env);
        add(`serve to HERALD_READY, ${variant.name}`, ready);
        add(`serve first request after ready, ${variant.name}`, firstRequest);
      }
    }
  } finally {
    await stopProcess(server.process);
  }

  const bare = median(samples.get("bare node (node -e 0)")!);
  const rows = [...samples].map(([name, xs]) => ({
    name,
    runs: xs.length,
    medianMs: Math.round(median(xs)),
    minMs: Math.round(Math.min(...xs)),
    ratioToBareNode: Number((median(xs) / bare).toFixed(2)),
  }));
  console.log("\n| measurement | runs | median ms | min ms | median / bare node |\n| --- | --- | --- | --- | --- |");
  for (const r of rows) console.log(`| ${r.name} | ${r.runs} | ${r.medianMs} | ${r.minMs} | ${r.ratioToBareNode} |`);
  const results = join(import.meta.dirname, "results");
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, "startup.json"), JSON.stringify({ environment: describeEnvironment(), runs, rows }, null, 2));
} finally {
  store.remove();
}
