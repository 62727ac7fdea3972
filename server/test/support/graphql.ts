// A minimal GraphQL-over-HTTP caller: tests see exactly what a client sees on the wire.
export interface GraphQLResponse<T = Record<string, unknown>> {
  status: number;
  data?: T | null;
  errors?: { message: string; path?: string[]; extensions?: { code?: string; field?: string } }[];
}

export async function gql<T = any>(
  url: string,
  token: string | null,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphQLResponse<T>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as Omit<GraphQLResponse<T>, "status">;
  return { status: response.status, ...body };
}

/** The first error's code, or undefined. */
export const errorCode = (r: GraphQLResponse) => r.errors?.[0]?.extensions?.code;

export const NOTIFICATION_FIELDS = `
  id key revision scope sessionId personId status severity title body
  source { plugin subsystem }
  display { format title body variant presentation dismissible }
  actions { kind id label url text actionId fixedParams assetId }
  operation { id type state phase elapsedSeconds cancellable }
  uiEffects retention { policy expiresAt requestId } trigger { type ref }
  engagement { id name } requestId resolution { actionId values }
  snoozedUntil createdAt updatedAt deliveredAt seenAt dismissedAt resolvedAt expiredAt
`;

const failureFragments: Record<string, string> = {
  ValidationError: "... on ValidationError { field }",
  NotFoundError: "... on NotFoundError { message }",
  RevisionConflictError: "... on RevisionConflictError { current { id revision status } }",
  NotificationTransitionError: "... on NotificationTransitionError { current { id revision status } }",
  OperationMismatchError: "... on OperationMismatchError { current { id revision status operation { id } } }",
};

const unionMembers: Record<string, string[]> = {
  publish: ["ValidationError", "NotFoundError", "NotificationTransitionError", "OperationMismatchError"],
  resolve: ["ValidationError", "NotFoundError", "NotificationTransitionError", "OperationMismatchError"],
  dismiss: ["ValidationError", "NotFoundError", "NotificationTransitionError", "RevisionConflictError"],
};

/** Selection for a mutation result union: the notification, or the failure with its details. */
export function resultFields(union: "publish" | "resolve" | "dismiss"): string {
  return `__typename
  ... on Notification { ${NOTIFICATION_FIELDS} }
  ... on UserError { message }
  ${unionMembers[union]!.map((m) => failureFragments[m]).join("\n  ")}`;
}
