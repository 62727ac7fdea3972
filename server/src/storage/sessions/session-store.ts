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
} from "../../domain/session-labels.ts";
import type { Database, Tx } from "../connection/database.ts";
import { retryingTransaction, StaleWrite } from "../connection/retrying-transaction.ts";
import type { Row } from "../sql/stored-values.ts";
import * as run from "../sql/run.ts";

/**
 * Completion ids remembered per session: what the retry rules need (a harness retries an exchange
 * within moments, not a hundred exchanges later). The record is not a delivery ledger.
 */
export const EXCHANGE_WINDOW = 100;

/** Forgets a session's completion ids beyond the newest EXCHANGE_WINDOW (a few per exchange at most). */
async function forgetBeyondWindow(database: Database, tx: Tx, sessionId: string): Promise<void> {
  const older = await run.rows(
    tx,
    "SessionExchange",
    database.build
      .selectFrom("SessionExchange")
      .select("completionId")
      .where("sessionId", "=", sessionId)
      .orderBy("createdAt", "desc")
      .orderBy("completionId", "desc")
      .limit(50)
      .offset(EXCHANGE_WINDOW),
  );
  if (older.length > 0) {
    const ids = older.map((r) => r.completionId);
    await run.execute(tx, database.build.deleteFrom("SessionExchange").where("sessionId", "=", sessionId).where("completionId", "in", ids));
  }
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
  constructor(private readonly database: Database) {}

  /** Decides and records one exchange of a session in one transaction (see decideExchange). */
  accept(sessionId: string, completionId: string, decide: (state: LabelState, seenBefore: boolean) => ExchangeDecision): Promise<Accepted> {
    const database = this.database;
    return retryingTransaction(this.database.db, async (tx) => {
      const prior = await stateOf(database, tx, sessionId);
      const seen = await run.first(
        tx,
        "SessionExchange",
        database.build.selectFrom("SessionExchange").select("notificationId").where("sessionId", "=", sessionId).where("completionId", "=", completionId),
      );
      const decision = decide(prior, seen !== null);
      const unnotified = seen !== null && seen.notificationId === null;
      if (decision.kind !== "accepted") return { prior, decision, unnotified };
      // A concurrent report of the same completion id collides here and is retried as a duplicate.
      await run.execute(tx, database.build.insertInto("SessionExchange").values({ sessionId, completionId, createdAt: database.time(new Date()) }));
      await forgetBeyondWindow(database, tx, sessionId);
      const { next } = decision;
      const count = await run.execute(
        tx,
        database.build
          .updateTable("Session")
          .set({ completionId: next.completionId, sourceGeneration: formatGeneration(next.sourceGeneration), namingFingerprint: next.namingFingerprint })
          .where("id", "=", sessionId)
          .where("sourceGeneration", "=", formatGeneration(prior.sourceGeneration)),
      );
      if (count !== 1) throw new StaleWrite();
      return { prior, decision, unnotified: false };
    });
  }

  /** The exchange's completion notification is published: a retry of it is a plain duplicate now. */
  async markNotified(sessionId: string, completionId: string, notificationId: string): Promise<void> {
    await run.execute(
      this.database.db,
      this.database.build.updateTable("SessionExchange").set({ notificationId }).where("sessionId", "=", sessionId).where("completionId", "=", completionId),
    );
  }

  /** Applies a labeler's answer, decided against the current state (see decideLabelResult). */
  recordLabel(sessionId: string, decide: (state: LabelState) => LabelOutcome): Promise<LabelOutcome> {
    const database = this.database;
    return retryingTransaction(this.database.db, async (tx) => {
      const state = await stateOf(database, tx, sessionId);
      const outcome = decide(state);
      if (outcome.kind !== "write") return outcome;
      const count = await run.execute(
        tx,
        database.build
          .updateTable("Session")
          .set({ label: outcome.label, labelGeneration: formatGeneration(outcome.labelGeneration) })
          .where("id", "=", sessionId)
          .where("labelGeneration", "=", formatGeneration(state.labelGeneration))
          .where("label", "=", state.label),
      );
      if (count !== 1) throw new StaleWrite();
      return outcome;
    });
  }
}

async function stateOf(database: Database, tx: Tx, sessionId: string): Promise<LabelState> {
  const row = await run.first(tx, "Session", database.build.selectFrom("Session").selectAll().where("id", "=", sessionId));
  if (!row) throw new LabelStateUnavailable("the session no longer exists");
  const state = readLabelState(row);
  if (state === "invalid") throw new LabelStateUnavailable("the stored label state is not valid");
  return state === "none" ? noLabelState : state;
}

/** A session row as the rest of the server sees it; an unreadable label state reads as none. */
export function toSession(row: Row<"Session">): SessionRecord {
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
