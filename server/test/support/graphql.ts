// A minimal GraphQL-over-HTTP caller: tests see exactly what a client sees on the wire.
import type { GraphQLObjectType, GraphQLUnionType } from "graphql";
import { schema } from "./schema.ts";

export interface GraphQLResponse<T = Record<string, unknown>> {
  status: number;
  data?: T | null;
  errors?: { message: string; path?: string[]; extensions?: { code?: string; field?: string } }[];
}

export async function gql<T = any>(url: string, token: string | null, query: string, variables: Record<string, unknown> = {}): Promise<GraphQLResponse<T>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  try {
    return { status: response.status, ...(JSON.parse(text) as Omit<GraphQLResponse<T>, "status">) };
  } catch {
    // Not GraphQL's answer (a proxy's error page): say what came, so a failure can be read.
    return {
      status: response.status,
      data: null as T,
      errors: [{ message: `HTTP ${response.status}, not JSON: ${text.slice(0, 120)}` }],
    } as GraphQLResponse<T>;
  }
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
  engagement { id name } requestId resolution { actionId values } terminalReason
  snoozedUntil createdAt updatedAt deliveredAt seenAt dismissedAt resolvedAt expiredAt
`;

const unions = { publish: "PublishNotificationResult", resolve: "ResolveNotificationResult", dismiss: "DismissNotificationResult" } as const;

/** A failure member's details, read from its type: the offending field, or the record as it is now. */
function failureFragment(type: GraphQLObjectType): string {
  const fields = type.getFields();
  const details = ["message", ...("field" in fields ? ["field"] : []), ...("current" in fields ? ["current { id revision status operation { id } }"] : [])];
  return `... on ${type.name} { ${details.join(" ")} }`;
}

/** Selection for a mutation result union: the notification, or the failure with its details (members as the schema declares them). */
export function resultFields(union: keyof typeof unions): string {
  const members = (schema.getType(unions[union]) as GraphQLUnionType).getTypes().filter((t) => t.name !== "Notification");
  return `__typename
  ... on Notification { ${NOTIFICATION_FIELDS} }
  ... on UserError { message }
  ${members.map(failureFragment).join("\n  ")}`;
}
