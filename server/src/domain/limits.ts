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
  /** One per result field, a page's fields times its size: a full page of the SDK's inbox is about 8,000. */
  queryCost: 20_000,
  queryAliases: 30,
  /** Tokens in one GraphQL document, and brackets open at once; both refused before parsing. */
  queryTokens: 5_000,
  queryNesting: 64,
  /** Parsed documents kept for reuse: at most this many, holding about this much memory. */
  parseCacheDocuments: 1_000,
  parseCacheBytes: 16 * 1024 * 1024,
} as const;

/** Sign-in link redemptions per window: a code is pressed a few times at most, a client signs in a few people at most. */
export const SIGN_IN_BUDGET = { perCode: 5, perClient: 20, windowSeconds: 15 * 60 } as const;
