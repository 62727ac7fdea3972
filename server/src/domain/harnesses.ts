// Kept out of config.ts, so the read-only metadata query loads no configuration parsing.
/** Agent harnesses whose sessions Herald labels (reportExchange, `herald session-metadata`). */
export const supportedHarnesses = ["pi", "claude-code", "codex", "opencode"] as const;
