// Label state of sessions. Every write is a compare-and-set on the generation it was decided
// from, so a late labeler result never overwrites a newer refresh and two concurrent exchanges
// never count as one.
import {
  type ExchangeDecision,
  formatGeneration,
  type LabelOutcome,
  type LabelState,
  noLabelState,
  readLabelState,
  type SessionRecord,
} from "../domain/session-labels.ts";
import type { Db, Tx } from "./database.ts";
import type { Session as SessionRow } from "./prisma-client/sqlite/client.ts";
import { retryingTransaction, StaleWrite } from "./retrying-transaction.ts";

/**
 * Completion ids remembered per session: what the retry rules need (a harness retries an exchange
 * within moments, not a hundred exchanges later). The record is not a delivery ledger.
 */
export const EXCHANGE_WINDOW = 100;

/** Forgets a session's completion ids beyond the newest EXCHANGE_WINDOW (a few per exchange at most). */
async function forgetBeyondWindow(tx: Tx, sessionId: string): Promise<void> {
  const older = await tx.sessionExchange.findMany({
    where: { sessionId },
    orderBy: [{ createdAt: "desc" }, { completionId: "desc" }],
    skip: EXCHANGE_WINDOW,
    take: 50,
    select: { completionId: true },
  });
  if (older.length > 0) await tx.sessionExchange.deleteMany({ where: { sessionId, completionId: { in: older.map((r) => r.completionId) } } });
}

/** The stored label state of a session cannot be read (corrupt or out of range): it is left alone. */
export class LabelStateUnavailable extends Error {}

export interface Accepted {
  /** The state the decision was taken from. */
  prior: LabelState;
  decision: ExchangeDecision;
  /** A duplicate whose first report never got its notification published. */
  unnotified: boolean;
}

export class SessionStore {
  constructor(private readonly db: Db) {}

  /** Decides and records one exchange of a session in one transaction (see decideExchange). */
  accept(sessionId: string, completionId: string, decide: (state: LabelState, seenBefore: boolean) => ExchangeDecision): Promise<Accepted> {
    return retryingTransaction(this.db, async (tx) => {
      const prior = await stateOf(tx, sessionId);
      const seen = await tx.sessionExchange.findUnique({ where: { sessionId_completionId: { sessionId, completionId } } });
      const decision = decide(prior, seen !== null);
      const unnotified = seen !== null && seen.notificationId === null;
      if (decision.kind !== "accepted") return { prior, decision, unnotified };
      // A concurrent report of the same completion id collides here and is retried as a duplicate.
      await tx.sessionExchange.create({ data: { sessionId, completionId } });
      await forgetBeyondWindow(tx, sessionId);
      const { next } = decision;
      const { count } = await tx.session.updateMany({
        where: { id: sessionId, sourceGeneration: formatGeneration(prior.sourceGeneration) },
        data: {
          completionId: next.completionId,
          sourceGeneration: formatGeneration(next.sourceGeneration),
          namingFingerprint: next.namingFingerprint,
        },
      });
      if (count !== 1) throw new StaleWrite();
      return { prior, decision, unnotified: false };
    });
  }

  /** The exchange's completion notification is published: a retry of it is a plain duplicate now. */
  async markNotified(sessionId: string, completionId: string, notificationId: string): Promise<void> {
    await this.db.sessionExchange.updateMany({ where: { sessionId, completionId }, data: { notificationId } });
  }

  /** Applies a labeler's answer, decided against the current state (see decideLabelResult). */
  recordLabel(sessionId: string, decide: (state: LabelState) => LabelOutcome): Promise<LabelOutcome> {
    return retryingTransaction(this.db, async (tx) => {
      const state = await stateOf(tx, sessionId);
      const outcome = decide(state);
      if (outcome.kind !== "write") return outcome;
      const { count } = await tx.session.updateMany({
        where: { id: sessionId, labelGeneration: formatGeneration(state.labelGeneration), label: state.label },
        data: { label: outcome.label, labelGeneration: formatGeneration(outcome.labelGeneration) },
      });
      if (count !== 1) throw new StaleWrite();
      return outcome;
    });
  }
}

async function stateOf(tx: Tx, sessionId: string): Promise<LabelState> {
  const row = await tx.session.findUnique({ where: { id: sessionId } });
  if (!row) throw new LabelStateUnavailable("the session no longer exists");
  const state = readLabelState(row);
  if (state === "invalid") throw new LabelStateUnavailable("the stored label state is not valid");
  return state === "none" ? noLabelState : state;
}

/** A session row as the rest of the server sees it; an unreadable label state reads as none. */
export function toSession(row: SessionRow): SessionRecord {
  const state = readLabelState(row);
  const valid = typeof state === "object" ? state : null;
  return {
    id: row.id,
    harness: row.harness,
    nativeSessionId: row.nativeSessionId,
    ownerPersonId: row.ownerPersonId,
    createdAt: row.createdAt,
    label: valid?.label ?? "",
    completionId: valid?.completionId ?? "",
    sourceGeneration: valid?.sourceGeneration ?? 0n,
    labelGeneration: valid?.labelGeneration ?? 0n,
  };
}
