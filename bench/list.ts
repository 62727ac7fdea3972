// List latency with 100,000 notifications for one person: Herald's `notifications` connection
// over HTTP against the same keyset query run by the raw driver. Requests are sent one at a
// time, so the figures are latencies, not throughput. totalCount is not requested: it adds COUNT
// queries over all the person's rows, which the raw keyset query has no counterpart for.
import { performance } from "node:perf_hooks";
import { benchConfig } from "./config.ts";
import type { GraphQLClient } from "./graphql-client.ts";
import { type Percentiles, round, sampleLatency } from "./load.ts";
import type { RawDriver } from "./raw-driver.ts";
import { type ListQuery, seededRow } from "./rows.ts";

const pageQuery = /* GraphQL */ `
  query Page($first: Int!, $after: String) {
    notifications(first: $first, after: $after) {
      edges {
        cursor
        node {
          id
          key
          revision
          status
          severity
          title
          body
          createdAt
          updatedAt
          source {
            plugin
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

interface PageData {
  notifications: {
    edges: { cursor: string; node: { id: string; createdAt: string } }[];
    pageInfo: { hasNextPage: boolean; endCursor: string };
  };
}

export interface LatencyComparison {
  herald: Percentiles;
  /** The same query against the bare graphql-yoga server (bare-server.ts): the framework floor. */
  bare: Percentiles;
  /** Floor p50 over Herald p50 (a speed ratio, 1 = as fast as the floor): the goal is at least 0.5. */
  bareOverHeraldP50: number;
  raw: Percentiles & { driver: string };
  /** Herald latency divided by raw latency: 1 would mean Herald adds nothing. */
  heraldOverRawP50: number;
  heraldOverRawP95: number;
  /** Herald's page, the floor's and the raw query returned the same ids in the same order. */
  sameRows: boolean;
  rawPlan: string;
}

export interface ListResult {
  rows: number;
  seed: { seconds: number; rowsPerSec: number; afterSeed: string };
  walk: { pageSize: number; pages: number; rowsWalked: number; seconds: number; meanPageMs: number };
  firstPage: LatencyComparison;
  deepPage: LatencyComparison & { startsAfterRow: number };
}

/** The list figures, and the ids the walk passed (unseen rows of the reader, for the seen scenario). */
export interface ListRun {
  result: ListResult;
  walkedIds: string[];
}

interface Context {
  reader: GraphQLClient;
  bare: GraphQLClient;
  raw: RawDriver;
  readerId: string;
  log: (line: string) => void;
}

const { listRows, deepPosition, walkPageSize, listPageSize, latencySamples, latencyWarmup } = benchConfig;
const seedBatch = 10_000;

export async function benchList({ reader, bare, raw, readerId, log }: Context): Promise<ListRun> {
  log(`Seeding ${listRows.toLocaleString("en")} PERSON notifications for one person (raw driver, batches of ${seedBatch})`);
  // All in the past, oldest first; rows are 37 ms apart (see seededRow).
  const base = new Date(Date.now() - listRows * 37 - 3_600_000);
  const seedStarted = performance.now();
  for (let start = 0; start < listRows; start += seedBatch) {
    const rows = Array.from({ length: Math.min(seedBatch, listRows - start) }, (_, j) => seededRow(readerId, start + j, base));
    await raw.seed(rows);
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const afterSeed = await raw.afterSeed();
  log(`  ${round(seedSeconds, 1)} s; then ${afterSeed}`);

  // The deep cursor is reached the way a client would: following endCursor page by page. Herald
  // signs cursors with its own secret, so there is no honest shortcut; the walk is measured too.
  const pagesToWalk = Math.floor(deepPosition / walkPageSize);
  log(`Walking ${pagesToWalk} pages of ${walkPageSize} to reach row ${deepPosition.toLocaleString("en")}`);
  let after: string | null = null;
  let last: { id: string; createdAt: string } | undefined;
  let rowsWalked = 0;
  let pages = 0;
  const walkedIds: string[] = [];
  const walkStarted = performance.now();
  while (pages < pagesToWalk) {
    const data: PageData = await reader.post<PageData>(pageQuery, { first: walkPageSize, after });
    pages++;
    const { edges, pageInfo } = data.notifications;
    rowsWalked += edges.length;
    for (const edge of edges) walkedIds.push(edge.node.id);
    last = edges.at(-1)?.node ?? last;
    after = pageInfo.endCursor;
    if (!pageInfo.hasNextPage) break;
  }
  const walkSeconds = (performance.now() - walkStarted) / 1000;
  if (rowsWalked !== deepPosition || !after || !last) {
    throw new Error(`The walk reached row ${rowsWalked}, not ${deepPosition}: the seed or pagination is off`);
  }
  log(`  ${round(walkSeconds, 1)} s (${round((walkSeconds * 1000) / pages, 1)} ms per page)`);

  const deepCursor = after;
  const position = { createdAt: new Date(last.createdAt), id: last.id };
  const query = (afterPosition: ListQuery["after"]): ListQuery => ({ personId: readerId, now: new Date(), after: afterPosition, limit: listPageSize + 1 });

  const compare = async (label: string, cursor: string | null, afterPosition: ListQuery["after"]): Promise<LatencyComparison> => {
    log(`${label}: ${latencySamples} sequential requests after ${latencyWarmup} warm-up, Herald, then the floor, then raw`);
    const heraldPage = () => reader.post<PageData>(pageQuery, { first: listPageSize, after: cursor });
    // The floor's cursor is the unsigned position itself (see bare-server.ts).
    const bareCursor = afterPosition ? Buffer.from(`${afterPosition.createdAt.toISOString()}|${afterPosition.id}`).toString("base64url") : null;
    const barePage = () => bare.post<PageData>(pageQuery, { first: listPageSize, after: bareCursor });
    const rawPage = () => raw.listPage(query(afterPosition));
    const herald = await sampleLatency(latencySamples, latencyWarmup, heraldPage);
    const bareLatency = await sampleLatency(latencySamples, latencyWarmup, barePage);
    const rawLatency = await sampleLatency(latencySamples, latencyWarmup, rawPage);
    const heraldIds = (await heraldPage()).notifications.edges.map((e) => e.node.id);
    const bareIds = (await barePage()).notifications.edges.map((e) => e.node.id);
    const rawIds = (await rawPage()).slice(0, listPageSize);
    const sameRows = heraldIds.length === listPageSize && heraldIds.join() === rawIds.join() && bareIds.join() === rawIds.join();
    log(
      `  Herald p50 ${herald.p50Ms} ms, p95 ${herald.p95Ms} ms; floor p50 ${bareLatency.p50Ms} ms (floor/Herald ${round(bareLatency.p50Ms / herald.p50Ms, 2)}); ` +
        `raw p50 ${rawLatency.p50Ms} ms, p95 ${rawLatency.p95Ms} ms; same rows: ${sameRows}`,
    );
    return {
      herald,
      bare: bareLatency,
      bareOverHeraldP50: round(bareLatency.p50Ms / herald.p50Ms, 2),
      raw: { ...rawLatency, driver: raw.name },
      heraldOverRawP50: round(herald.p50Ms / rawLatency.p50Ms, 1),
      heraldOverRawP95: round(herald.p95Ms / rawLatency.p95Ms, 1),
      sameRows,
      rawPlan: await raw.explainList(query(afterPosition)),
    };
  };

  const firstPage = await compare(`First page (first: ${listPageSize})`, null, null);
  const deepPage = await compare(`Deep page (first: ${listPageSize} after row ${deepPosition.toLocaleString("en")})`, deepCursor, position);

  const result: ListResult = {
    rows: listRows,
    seed: { seconds: round(seedSeconds, 2), rowsPerSec: Math.round(listRows / seedSeconds), afterSeed },
    walk: { pageSize: walkPageSize, pages, rowsWalked, seconds: round(walkSeconds, 2), meanPageMs: round((walkSeconds * 1000) / pages, 2) },
    firstPage,
    deepPage: { ...deepPage, startsAfterRow: deepPosition },
  };
  return { result, walkedIds };
}
