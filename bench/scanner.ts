// `npm run bench:scanner [-- --small] [-- sqlite|postgresql]` (--small: a tenth of the size): one trigger-scanner cycle over
// 100,000 remembered facts and 10,000 engagements, beside the same selection done as one SQL
// query in the same run, and list latency (p50, p99) while a cycle runs against idle, with the
// goal's verdict (within 2x: MET / NOT MET) for the first cycle (which creates the notifications)
// and a steady one. In-process: the scanner shares the server's event loop, which is what "must
// not block requests" is about; the report splits each cycle into selection and raising.
import { performance } from "node:perf_hooks";
import { createHerald, type Herald, startServer } from "@herald/server/app";
import type { Clock } from "@herald/server/domain/clock";
import { createLogger } from "@herald/server/logger";
import { DATE_RULES_VERSION, extractDateRules, serializeDateRules } from "@herald/server/domain/date-rules";
import { type BenchDatabase, createPostgresDatabase, createSqliteDatabase } from "./databases.ts";
import { GraphQLClient } from "./graphql-client.ts";

const small = process.argv.includes("--small");
const scale = Number(process.env.SCANNER_BENCH_SCALE ?? (small ? 0.1 : 1));
const sizes = { facts: Math.round(100_000 * scale), engagements: Math.round(10_000 * scale) };
const only = process.argv.find((a) => a === "sqlite" || a === "postgresql");
const DAY = 86_400_000;
const now = new Date("2026-06-10T12:00:00Z");
const clock: Clock = { now: () => now };
const log = (line: string) => console.log(`[scanner bench] ${line}`);

/** Deterministic pseudo-random numbers, so every run seeds the same data. */
function random(seed: number) {
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** A remembered fact's row as the server stores one: its dates extracted once, by the domain's rules. */
function newFact(personId: string, content: string, engagementId: string | null, now: Date) {
  const rules = extractDateRules(content, now, "UTC");
  return {
    personId,
    content,
    engagementId,
    dateRules: serializeDateRules(rules),
    hasDates: rules.length > 0,
    datesVersion: DATE_RULES_VERSION,
    createdAt: now,
  };
}

/** 10% of facts mention a date: yearly (4%), one day (3%), weekly (3%). */
function factText(i: number, rnd: () => number): string {
  const kind = i % 100;
  if (kind < 4) return `My friend ${i}'s birthday is ${MONTHS[Math.floor(rnd() * 12)]} ${1 + Math.floor(rnd() * 28)}`;
  if (kind < 7) return `Appointment ${i} on ${new Date(now.getTime() + Math.floor(rnd() * 365) * DAY).toISOString().slice(0, 10)}`;
  if (kind < 10) return `Class ${i} every ${WEEKDAYS[Math.floor(rnd() * 7)]}`;
  return `Prefers tea number ${i} with a little milk and no sugar`;
}

async function seed(herald: Herald) {
  const { db, build, time } = herald.database;
  const execute = (statement: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
    const { sql, parameters } = statement.compile();
    return db.execute(sql, parameters);
  };
  const rnd = random(42);
  const persons = sizes.engagements;
  const chunk = <T>(rows: T[], size = 1_000) => Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));
  const personRows = Array.from({ length: persons }, (_, i) => ({ id: `p${i}`, name: `Person ${i}`, quietMode: i % 20 === 0, createdAt: time(new Date()) }));
  for (const rows of chunk(personRows)) await execute(build.insertInto("Person").values(rows));
  // Engagements spread over the last 60 days: about a quarter are silent for 14 days or more.
  const engagementRows = Array.from({ length: sizes.engagements }, (_, i) => ({
    id: `e${i}`,
    name: `Engagement ${i}`,
    operatorPersonId: `p${i}`,
    createdAt: new Date(now.getTime() - Math.floor(rnd() * 60) * DAY),
  }));
  for (const rows of chunk(engagementRows)) await execute(build.insertInto("Engagement").values(rows.map((e) => ({ ...e, createdAt: time(e.createdAt) }))));
  const members = engagementRows.map((e) => ({ engagementId: e.id, personId: e.operatorPersonId, role: "OPERATOR", createdAt: e.createdAt }));
  for (const rows of chunk(members)) await execute(build.insertInto("EngagementMember").values(rows.map((m) => ({ ...m, createdAt: time(m.createdAt) }))));
  const events = engagementRows
    .filter((_, i) => i % 2 === 0)
    .map((e, i) => ({
      id: `ev${i}`,
      type: "render.produced",
      payload: "{}",
      engagementId: e.id,
      occurredAt: now,
      receivedAt: new Date(now.getTime() - Math.floor(rnd() * 30) * DAY),
    }));
  for (const rows of chunk(events)) {
    await execute(build.insertInto("CompanionEvent").values(rows.map((e) => ({ ...e, occurredAt: time(e.occurredAt), receivedAt: time(e.receivedAt) }))));
  }
  const facts = Array.from({ length: sizes.facts }, (_, i) => ({
    id: `f${i}`,
    ...newFact(`p${i % persons}`, factText(i, rnd), null, new Date(now.getTime() - 30 * DAY)),
  }));
  for (const rows of chunk(facts)) await execute(build.insertInto("RememberedFact").values(rows.map((f) => ({ ...f, createdAt: time(f.createdAt) }))));
}

/** The scanner's two selections as one SQL statement each, run back to back: the baseline. */
async function sqlSelection(herald: Herald): Promise<number> {
  const { db } = herald.database;
  const pgsql = herald.database.provider === "postgresql";
  const t = (sqlite: string, postgres: string) => (pgsql ? postgres : sqlite);
  const started = performance.now();
  await db.query(
    `SELECT f."id", f."personId", f."content", f."dateRules" FROM "RememberedFact" f JOIN "Person" p ON p."id" = f."personId"
     WHERE f."hasDates" = ${t("1", "true")} AND p."quietMode" = ${t("0", "false")}`,
    [],
  );
  const latest = (sub: string) => `COALESCE((${sub}), e."createdAt")`;
  await db.query(
    `SELECT e."id", e."name", e."operatorPersonId", ${t("MAX", "GREATEST")}(e."createdAt",
       ${latest(`SELECT MAX(x."receivedAt") FROM "CompanionEvent" x WHERE x."engagementId" = e."id"`)},
       ${latest(`SELECT MAX(m."createdAt") FROM "EngagementMember" m WHERE m."engagementId" = e."id"`)},
       ${latest(`SELECT MAX(r."createdAt") FROM "RememberedFact" r WHERE r."engagementId" = e."id"`)},
       ${latest(`SELECT MAX(n."createdAt") FROM "Notification" n WHERE n."engagementId" = e."id" AND n."triggerType" <> 'TIME_BASED'`)}) AS "lastActivity"
     FROM "Engagement" e JOIN "Person" p ON p."id" = e."operatorPersonId" WHERE p."quietMode" = ${t("0", "false")}`,
    [],
  );
  return performance.now() - started;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Sequential list requests until `until` resolves (or `count` when idle). */
async function listLatencies(client: GraphQLClient, count: number, until?: Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  let done = false;
  void until?.then(() => (done = true));
  while (until ? !done : samples.length < count) {
    const started = performance.now();
    await client.post(`query { notifications(first: 20) { edges { node { id title status } } } }`);
    samples.push(performance.now() - started);
  }
  return samples;
}

async function runProvider(provider: "sqlite" | "postgresql") {
  const database: BenchDatabase = provider === "sqlite" ? await createSqliteDatabase() : await createPostgresDatabase();
  // The server's own scanner timer must not run a cycle of its own while seeding takes minutes
  // (it did: the measured "first" cycle then found everything raised and idle latency was taken
  // during the timer's cycle); the benchmark runs the cycles itself.
  // One reader asks for its list back to back for the length of a cycle (a minute or more): far
  // more than the per-credential rate limit allows a person, so the limit is lifted here.
  const herald = await createHerald({
    databaseUrl: database.url,
    logger: createLogger("silent"),
    clock,
    tuning: { scanIntervalMs: 24 * 3_600_000, rateLimitPoints: 1_000_000 },
  });
  const server = await startServer(herald, 0, "127.0.0.1");
  let client: GraphQLClient | undefined;
  try {
    log(`${provider}: seeding ${sizes.facts} facts and ${sizes.engagements} engagements`);
    await seed(herald);
    const reader = (await herald.services.auth.issuePersonToken("p1")).secret;
    for (let i = 0; i < 50; i++)
      await herald.services.notifications.publish({ scope: "PERSON", personId: "p1", key: `k${i}`, title: `n${i}`, source: { plugin: "bench" } });
    client = new GraphQLClient(new URL(`${server.url}/graphql`), reader);
    await listLatencies(client, 20); // warm-up

    log(`${provider}: list latency idle`);
    const idle = await listLatencies(client, 200);
    const cycle = async () => {
      const started = performance.now();
      const running = herald.scanner.runCycle(now);
      // The cycle is awaited even when a request fails, so nothing runs on after the database is dropped.
      const during = await listLatencies(client!, 0, running).catch(async (error: unknown) => {
        await running.catch(() => undefined);
        throw error;
      });
      return { report: await running, ms: performance.now() - started, during };
    };
    log(`${provider}: first cycle (creates the notifications) with list requests alongside`);
    const first = await cycle();
    log(`${provider}: steady cycle (everything fired already) with list requests alongside`);
    const steady = await cycle();
    const idleAgain = await listLatencies(client, 200);
    const [firstMs, firstReport, duringFirst] = [first.ms, first.report, first.during];
    const [steadyMs, steadyReport, duringSteady] = [steady.ms, steady.report, steady.during];

    const sqlMs = Math.min(await sqlSelection(herald), await sqlSelection(herald), await sqlSelection(herald));
    const idleAll = [...idle, ...idleAgain];
    const ratio = (during: number[], p: number) => +(percentile(during, p) / percentile(idleAll, p)).toFixed(2);
    const verdict = (r: number) => (r <= 2 ? "MET" : "NOT MET");
    const ms = (n: number) => Math.round(n);
    const row = {
      provider,
      facts: sizes.facts,
      engagements: sizes.engagements,
      firstCycleMs: ms(firstMs),
      firstCycleChecked: `${firstReport.facts} dated facts, ${firstReport.engagements} engagements`,
      firstCycleCreated: firstReport.created,
      firstSelectMs: ms(firstReport.timings.select),
      firstRaiseMs: ms(firstReport.timings.raise),
      steadyCycleMs: ms(steadyMs),
      steadyCycleCreated: steadyReport.created,
      steadySelectFactsMs: ms(steadyReport.timings.facts),
      steadySelectEngagementsMs: ms(steadyReport.timings.engagements),
      steadyUnfiredMs: ms(steadyReport.timings.unfired),
      steadyRaiseMs: ms(steadyReport.timings.raise),
      sqlSelectionMs: ms(sqlMs),
      steadyVsSql: +(steadyMs / sqlMs).toFixed(1),
      listP50IdleMs: +percentile(idleAll, 50).toFixed(1),
      listP99IdleMs: +percentile(idleAll, 99).toFixed(1),
      listP50DuringFirstMs: +percentile(duringFirst, 50).toFixed(1),
      listP99DuringFirstMs: +percentile(duringFirst, 99).toFixed(1),
      listP50DuringSteadyMs: +percentile(duringSteady, 50).toFixed(1),
      listP99DuringSteadyMs: +percentile(duringSteady, 99).toFixed(1),
      requestsDuringFirst: duringFirst.length,
      requestsDuringSteady: duringSteady.length,
      p50RatioFirst: ratio(duringFirst, 50),
      p99RatioFirst: ratio(duringFirst, 99),
      p50RatioSteady: ratio(duringSteady, 50),
      p99RatioSteady: ratio(duringSteady, 99),
    };
    const worst = Math.max(row.p50RatioFirst, row.p99RatioFirst, row.p50RatioSteady, row.p99RatioSteady);
    log(
      `${provider}: list latency during a cycle vs idle: first p50 ${row.p50RatioFirst}x, p99 ${row.p99RatioFirst}x; ` +
        `steady p50 ${row.p50RatioSteady}x, p99 ${row.p99RatioSteady}x -> goal (within 2x) ${verdict(worst)}`,
    );
    return row;
  } finally {
    client?.close();
    await server.close();
    await herald.close();
    await database.drop();
  }
}

const rows = [];
for (const provider of ["sqlite", "postgresql"] as const) {
  if (only && only !== provider) continue;
  try {
    rows.push(await runProvider(provider));
  } catch (error) {
    log(`${provider} FAILED: ${error instanceof Error ? error.message : String(error)}`);
  }
}
// Wide rows: one block per provider reads better than a table.
for (const row of rows) console.log(row);
