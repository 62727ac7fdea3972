// The one place a failed call to Herald becomes a sentence for a person: the browser's state and
// the server routes (sign-in, layout loads) both use it, so the same failure reads the same way.
import { HeraldError, type HeraldErrorCode } from "@herald/sdk";
import { t } from "./i18n/index.ts";

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

const IN_SITUATION: Record<Situation, Partial<Record<HeraldErrorCode, string>>> = {
  dashboard: {},
  token: t.errors.token,
  link: t.errors.link,
};

export function describeFailure(error: unknown, situation: Situation = "dashboard"): Failure {
  if (!(error instanceof HeraldError)) return { message: t.errors.unknown, unreachable: false };
  return { message: sentenceForCode(error.code, situation) ?? error.message, unreachable: error.code === "NETWORK" };
}

/** The sentence for a failure code, also for one the dashboard foresees before asking Herald. */
export function sentenceForCode(code: HeraldErrorCode, situation: Situation = "dashboard"): string | undefined {
  return IN_SITUATION[situation][code] ?? t.errors.byCode[code];
}

/** The sentence alone, for messages in the page. */
export const sentenceFor = (error: unknown): string => describeFailure(error).message;
