// Chooses the labeler from configuration: a configured OpenAI-compatible endpoint, else the
// built-in one (no network).
import type { Config } from "../../config.ts";
import { BuiltinLabeler } from "./builtin-labeler.ts";
import type { Labeler } from "./labeler.ts";
import { OpenAILabeler } from "./openai-labeler.ts";

export type { Labeler, LabelRequest } from "./labeler.ts";
export { BuiltinLabeler } from "./builtin-labeler.ts";
export { OpenAILabeler } from "./openai-labeler.ts";

export function labelerFrom(config: Config): Labeler {
  if (!config.HERALD_LABELER_URL) return new BuiltinLabeler();
  return new OpenAILabeler({
    url: config.HERALD_LABELER_URL,
    model: config.HERALD_LABELER_MODEL,
    key: config.HERALD_LABELER_KEY,
    timeoutMs: config.HERALD_LABELER_TIMEOUT_MS,
  });
}
