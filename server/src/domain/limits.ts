// Documented input limits (docs/api.md, "Limits"). Changing one is a public-contract change.
export const limits = {
  keyLength: 200,
  titleLength: 200,
  bodyLength: 10_000,
  nameLength: 200,
  shortTextLength: 200,
  actionsPerNotification: 5,
  /** Serialized size of any one JSON field (uiEffects, fixedParams, resolution values). */
  jsonBytes: 16 * 1024,
  reasonLength: 500,
  /** reportExchange: each of userText and assistantText, and the working directory. */
  exchangeTextLength: 100_000,
  cwdLength: 4_096,
  /** Records per page: the default, and the most one page may ask for. */
  defaultPageSize: 20,
  pageSize: 100,
  batchIds: 500,
  /** Queries deeper or costlier than this are refused before execution. */
  queryDepth: 10,
  queryCost: 5_000,
  queryAliases: 30,
} as const;
