// The calls a harness hook makes to a running Herald, over the producer commands' HTTP client:
// report a completed exchange, raise a session's attention notification, clear it. Configured by
// HERALD_URL, HERALD_PRODUCER_KEY and HERALD_PERSON_ID.
import { plainAgentText } from "../../domain/agent-text.ts";
import { sessionTitle } from "../../domain/session-title.ts";
import { callHerald, connectionFromEnv, outcomeOf, type ProducerConnection } from "../producer-client.ts";
import type { HookBudget } from "./budget.ts";

/** What a hook sends of each text: well inside the API's limit, and more than a label reads. */
export const HOOK_TEXT_CHARS = 8_000;

export interface Exchange {
  harness: string;
  sessionId: string;
  /** The harness's own id of the completion; null when it gave none (notifies without counting). */
  completionId: string | null;
  cwd: string;
  userText: string;
  assistantText: string;
}

export interface Attention {
  harness: string;
  sessionId: string;
  cwd: string;
  /** What the agent waits for, after the session's name: "needs your permission". */
  waits: string;
  body: string;
}

/** The Herald session of a harness session: its id for SESSION-scoped notifications, its label for their titles. */
export interface HeraldSession {
  id: string;
  label: string;
}

const REPORT = `mutation HookReport($input: ReportExchangeInput!, $attention: String!) {
  reportExchange(input: $input) { __typename ... on ReportedExchange { duplicate } ... on ValidationError { field message } }
  completeRequest(requestId: $attention)
}`;
const CREATE_SESSION = `mutation HookSession($input: CreateSessionInput!) { createSession(input: $input) { id label } }`;
const FIND_SESSION = `query HookSession($harness: String!, $sessionId: String!) { session(harness: $harness, sessionId: $sessionId) { id label } }`;
const PUBLISH = `mutation HookAttention($input: PublishNotificationInput!) {
  publishNotification(input: $input) { __typename ... on Notification { id } ... on UserError { message } ... on ValidationError { field } }
}`;

/**
 * The request that ties a session's attention notification to the session: the next completed
 * exchange of the session expires it (completeRequest), since the agent got what it waited for.
 */
export function attentionRequestId(harness: string, sessionId: string): string {
  return `${harness}:${sessionId}:attention`;
}

export class HookReporter {
  readonly connection: ProducerConnection;
  private readonly personId: string | null;

  constructor(
    private readonly budget: HookBudget,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.connection = connectionFromEnv(env);
    this.personId = env.HERALD_PERSON_ID?.trim() || null;
  }

  /** Reports the exchange and, in the same request, clears the session's attention notification. */
  async exchange(exchange: Exchange): Promise<void> {
    const input = {
      ...exchange,
      userText: bounded(exchange.userText),
      assistantText: bounded(exchange.assistantText),
      ...(this.personId ? { personId: this.personId } : {}),
    };
    const result = await callHerald(
      this.connection,
      "reportExchange",
      REPORT,
      { input, attention: attentionRequestId(exchange.harness, exchange.sessionId) },
      this.budget.signal,
    );
    outcomeOf(result);
  }

  /** Publishes (or revises in place) the session's one attention notification. */
  async attention(attention: Attention): Promise<void> {
    const session = await this.session(attention.harness, attention.sessionId);
    const requestId = attentionRequestId(attention.harness, attention.sessionId);
    const input = {
      scope: "SESSION",
      sessionId: session.id,
      key: "attention",
      title: bounded(sessionTitle({ harness: attention.harness, label: session.label, cwd: attention.cwd }, attention.waits), 200),
      body: bounded(attention.body, 2_000),
      severity: "WARNING",
      source: { plugin: attention.harness, subsystem: "attention" },
      retention: { policy: "UNTIL_REQUEST_COMPLETE", requestId },
    };
    outcomeOf(await callHerald(this.connection, "publishNotification", PUBLISH, { input }, this.budget.signal));
  }

  /**
   * The Herald session, created for HERALD_PERSON_ID when it does not exist yet (a key bound to
   * the harness's plugin may: the setup the README recommends). Without a person it must exist.
   */
  async session(harness: string, sessionId: string): Promise<HeraldSession> {
    let found: Record<string, unknown>;
    if (this.personId) {
      found = await callHerald(
        this.connection,
        "createSession",
        CREATE_SESSION,
        { input: { harness, sessionId, ownerPersonId: this.personId } },
        this.budget.signal,
      );
    } else {
      try {
        found = await callHerald(this.connection, "session", FIND_SESSION, { harness, sessionId }, this.budget.signal);
      } catch (error) {
        if (/without session$/.test((error as Error).message))
          throw new Error(`no Herald session for ${harness} session ${sessionId} yet (set HERALD_PERSON_ID to create it)`);
        throw error;
      }
    }
    return { id: String(found.id), label: typeof found.label === "string" ? found.label : "" };
  }
}

/** The agent's text without what Herald would refuse or could not show (agent-text.ts), at most `limit` code points. */
export function bounded(text: string, limit = HOOK_TEXT_CHARS): string {
  const points = Array.from(plainAgentText(text).trim());
  return points.length <= limit ? points.join("") : points.slice(0, limit).join("");
}
