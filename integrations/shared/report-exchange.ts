// Reports one completed exchange of an agent harness to Herald (`POST /api/v1/report-exchange`).
// It runs inside the harness's own process, so it must never slow or fail the agent: one request
// bounded in time, every failure swallowed and said once on stderr, nothing on stdout. Only node
// built-ins and one pure, dependency-free rule of the server package: the harness loads this file
// from source, without Herald's dependencies.
import { plainAgentText } from "@herald/server/domain/agent-text";

export interface ExchangeReport {
  harness: "pi" | "opencode";
  sessionId: string;
  /** The harness's own id of this completion; absent means "notify, do not count". */
  completionId?: string | undefined;
  cwd: string;
  userText: string;
  assistantText: string;
}

export interface ReporterConfig {
  /** The /api/v1/report-exchange URL. */
  endpoint: string;
  key: string;
  personId?: string | undefined;
  timeoutMs: number;
}

export type ReportOutcome =
  { kind: "reported"; duplicate: boolean; label: string | null } | { kind: "skipped"; reason: string } | { kind: "failed"; reason: string };

/** The whole request, answer included. The agent's turn has already ended; this only bounds our work. */
export const REPORT_TIMEOUT_MS = 2_000;
/** Text sent per side: enough for the notification body (500) and the labeler (2,000). */
export const TEXT_LIMIT = 8_000;
const ANSWER_LIMIT = 64 * 1024;

type Env = Record<string, string | undefined>;

/** The reporter's settings from HERALD_URL, HERALD_PRODUCER_KEY and HERALD_PERSON_ID; null without a key. */
export function reporterConfig(env: Env = process.env): ReporterConfig | null {
  const key = env.HERALD_PRODUCER_KEY?.trim();
  if (!key) return null;
  const base = (env.HERALD_URL?.trim() || "http://127.0.0.1:4000").replace(/\/+$/, "").replace(/\/graphql$/, "");
  return { endpoint: `${base}/api/v1/report-exchange`, key, personId: env.HERALD_PERSON_ID?.trim() || undefined, timeoutMs: REPORT_TIMEOUT_MS };
}

/** At most `limit` characters, never splitting a surrogate pair. */
export function bounded(text: string, limit = TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * One line on stderr per kind of trouble, until things work again: a server that is down says so
 * once, not on every turn of the agent.
 */
export class OnceWarner {
  private readonly said = new Set<string>();
  constructor(
    private readonly prefix: string,
    private readonly write: (line: string) => void = (line) => process.stderr.write(line),
  ) {}
  warn(kind: string, detail: string): void {
    if (this.said.has(kind)) return;
    this.said.add(kind);
    try {
      this.write(`${this.prefix}: ${detail}\n`);
    } catch {
      // stderr closed: nothing more to do
    }
  }
  recovered(): void {
    this.said.clear();
  }
}

/** Sends the report; resolves (never rejects) with what happened. */
export async function reportExchange(report: ExchangeReport, config: ReporterConfig | null, warner: OnceWarner): Promise<ReportOutcome> {
  if (!config) {
    warner.warn("config", "HERALD_PRODUCER_KEY is not set; exchanges are not reported");
    return { kind: "skipped", reason: "not configured" };
  }
  const input = {
    harness: report.harness,
    sessionId: report.sessionId,
    ...(report.completionId ? { completionId: report.completionId } : {}),
    cwd: report.cwd,
    // A NUL would make Herald refuse the whole report; controls and bidi overrides are dropped too.
    userText: bounded(plainAgentText(report.userText)),
    assistantText: bounded(plainAgentText(report.assistantText)),
    ...(config.personId ? { personId: config.personId } : {}),
  };
  try {
    const response = await fetch(config.endpoint, {
      method: "POST",
      signal: AbortSignal.timeout(config.timeoutMs),
      headers: { "content-type": "application/json", authorization: `Bearer ${config.key}` },
      body: JSON.stringify({ input }),
    });
    const text = await readAtMost(response, ANSWER_LIMIT);
    if (!response.ok) {
      // A ValidationError names the field; anything else says only the status (never the key).
      const problem = describeRefusal(response.status, text);
      warner.warn(`http-${response.status}`, `Herald refused the exchange report: ${problem}`);
      return { kind: "failed", reason: problem };
    }
    const answer = JSON.parse(text) as { duplicate?: boolean; session?: { label?: string | null } };
    warner.recovered();
    return { kind: "reported", duplicate: answer.duplicate === true, label: answer.session?.label || null };
  } catch (error) {
    const reason =
      error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
        ? `no answer within ${config.timeoutMs} ms`
        : String((error as Error)?.message ?? error);
    warner.warn("unreachable", `Herald at ${new URL(config.endpoint).origin} did not take the exchange report (${reason})`);
    return { kind: "failed", reason };
  }
}

function describeRefusal(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { field?: unknown; message?: unknown };
    if (typeof parsed.field === "string" && typeof parsed.message === "string")
      return `HTTP ${status}, invalid ${parsed.field}: ${parsed.message}`.slice(0, 300);
  } catch {
    // not JSON
  }
  return `HTTP ${status}`;
}

export async function readAtMost(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new Error(`answer over ${limit} bytes`);
    }
    parts.push(value);
  }
  return Buffer.concat(parts).toString("utf8");
}
