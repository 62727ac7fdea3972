// The one place a failed call to Herald becomes a sentence for a person: the browser's state and
// the server routes (sign-in, layout loads) both use it, so the same failure reads the same way.
import { HeraldError, type HeraldErrorCode } from "@herald/sdk";

export interface Failure {
  message: string;
  /** Herald did not answer (as opposed to answering no): pages say "try again" with a 503. */
  unreachable: boolean;
}

/**
 * What the person was doing decides what "not accepted" means: in the dashboard their sign-in
 * ended; on the token form the pasted token was refused; on a sign-in link the link is spent.
 */
export type Situation = "dashboard" | "token" | "link";

const UNREACHABLE = "Herald could not be reached. Check that it is running and try again.";

const SPENT_LINK =
  "This sign-in link is not valid any more: it may have been used already or have expired. Ask for a new one, or sign in with a token.";

const SENTENCES: Partial<Record<HeraldErrorCode, string>> = {
  NETWORK: UNREACHABLE,
  UNAUTHENTICATED: "Your sign-in is no longer valid. Sign in again.",
  FORBIDDEN: "That is a producer key, not a person token. Sign in with a token that starts with herald_pt_.",
  NOT_FOUND: "That notification no longer exists.",
};

const IN_SITUATION: Record<Situation, Partial<Record<HeraldErrorCode, string>>> = {
  dashboard: {},
  token: { UNAUTHENTICATED: "Herald did not accept this token. It may be mistyped, revoked or expired." },
  link: { UNAUTHENTICATED: SPENT_LINK, VALIDATION_ERROR: SPENT_LINK, NOT_FOUND: SPENT_LINK },
};

export function describeFailure(error: unknown, situation: Situation = "dashboard"): Failure {
  if (!(error instanceof HeraldError)) return { message: "Something went wrong. Try again.", unreachable: false };
  return { message: sentenceForCode(error.code, situation) ?? error.message, unreachable: error.code === "NETWORK" };
}

/** The sentence for a failure code, also for one the dashboard foresees before asking Herald. */
export function sentenceForCode(code: HeraldErrorCode, situation: Situation = "dashboard"): string | undefined {
  return IN_SITUATION[situation][code] ?? SENTENCES[code];
}

/** The sentence alone, for messages in the page. */
export const sentenceFor = (error: unknown): string => describeFailure(error).message;
