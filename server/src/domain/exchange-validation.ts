// What reportExchange accepts: only the supported harnesses and the session-id form the
// metadata query accepts, so every labelled session can be queried.
import { z } from "zod";
import { plainAgentText } from "./agent-text.ts";
import { supportedHarnesses } from "./harnesses.ts";
import { limits } from "./limits.ts";
import { type Harness, isSupportedHarness, isValidCompletionId, isValidSessionId } from "./session-labels.ts";
import { parse } from "./validation.ts";

export interface ValidExchange {
  harness: Harness;
  sessionId: string;
  /** null: the harness gave no completion identity, so the exchange notifies but is not counted. */
  completionId: string | null;
  cwd: string;
  userText: string;
  assistantText: string;
  personId: string | null;
}

const exchangeSchema = z.object({
  harness: z.string().refine(isSupportedHarness, `must be one of ${supportedHarnesses.join(", ")}`),
  sessionId: z.string().refine(isValidSessionId, "must be 1-128 characters of A-Za-z0-9._:- not starting with . or -"),
  completionId: z.string().refine(isValidCompletionId, "must be 1-128 visible ASCII characters (omit it when the harness has none)").nullish(),
  cwd: z
    .string()
    .min(1, "must not be empty")
    .max(limits.cwdLength, `must be at most ${limits.cwdLength} characters`)
    .refine((v) => !/\p{Cc}/u.test(v), "must not contain control characters"),
  // Stored and shown without control characters or bidi overrides (agent-text.ts).
  userText: z.string().max(limits.exchangeTextLength, `must be at most ${limits.exchangeTextLength} characters`).transform(plainAgentText),
  assistantText: z.string().max(limits.exchangeTextLength, `must be at most ${limits.exchangeTextLength} characters`).transform(plainAgentText),
  personId: z.string().min(1).nullish(),
});

export function validateExchange(input: unknown): ValidExchange {
  const parsed = parse(exchangeSchema, input);
  return { ...parsed, harness: parsed.harness as Harness, completionId: parsed.completionId ?? null, personId: parsed.personId ?? null };
}
