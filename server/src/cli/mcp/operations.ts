// The GraphQL operations `herald mcp` (and the approval hook) send as a producer: publish (keyed:
// the same key revises in place), resolve, expire, and acknowledging an invocation. Each failure is a ProducerFailure.
import { callHerald, outcomeOf, type ProducerConnection } from "../producer-client.ts";

const failures = `
  ... on UserError { message }
  ... on ValidationError { field }
  ... on NotificationTransitionError { current { id revision status } }
  ... on OperationMismatchError { current { id revision status } }`;
const notificationResult = `__typename ... on Notification { id key revision status }${failures}`;

const PUBLISH = `mutation McpPublish($input: PublishNotificationInput!) { publishNotification(input: $input) { ${notificationResult} } }`;
const RESOLVE = `mutation McpResolve($id: ID!, $resolution: ResolutionInput, $operationId: String) {
  resolveNotification(id: $id, resolution: $resolution, operationId: $operationId) { ${notificationResult} } }`;
const PATCH_BY_KEY = `mutation McpPatch($target: NotificationPatchTarget!, $patch: NotificationPatch!) {
  updateNotificationByKey(target: $target, patch: $patch) { ${notificationResult} ... on NotFoundError { message } } }`;
const EXPIRE = `mutation McpExpire($id: ID!) { expireNotification(id: $id) { ${notificationResult} } }`;
const ACKNOWLEDGE = `mutation McpAcknowledge($id: ID!, $message: String) {
  acknowledgeActionInvocation(id: $id, outcome: ACKNOWLEDGED, message: $message) { __typename
    ... on ActionInvocation { id state }
    ... on UserError { message }
    ... on ValidationError { field } } }`;

export interface PublishedNotification {
  id: string;
  key: string;
  revision: number;
  status: string;
}

export async function publish(connection: ProducerConnection, input: Record<string, unknown>): Promise<PublishedNotification> {
  return outcomeOf(await callHerald(connection, "publishNotification", PUBLISH, { input })) as unknown as PublishedNotification;
}

export async function resolve(
  connection: ProducerConnection,
  id: string,
  options: { resolution?: { actionId: string; values: unknown }; operationId?: string } = {},
): Promise<PublishedNotification> {
  const variables = { id, resolution: options.resolution ?? null, operationId: options.operationId ?? null };
  return outcomeOf(await callHerald(connection, "resolveNotification", RESOLVE, variables)) as unknown as PublishedNotification;
}

/** Patches the active notification of a key (fields left out keep their value); null when there is none. */
export async function patchByKey(
  connection: ProducerConnection,
  target: Record<string, unknown>,
  patch: Record<string, unknown>,
): Promise<PublishedNotification | null> {
  const result = await callHerald(connection, "updateNotificationByKey", PATCH_BY_KEY, { target, patch });
  if (result.__typename === "NotFoundError") return null;
  return outcomeOf(result) as unknown as PublishedNotification;
}

export async function expire(connection: ProducerConnection, id: string): Promise<PublishedNotification> {
  return outcomeOf(await callHerald(connection, "expireNotification", EXPIRE, { id })) as unknown as PublishedNotification;
}

export async function acknowledge(connection: ProducerConnection, invocationId: string, message: string): Promise<void> {
  outcomeOf(await callHerald(connection, "acknowledgeActionInvocation", ACKNOWLEDGE, { id: invocationId, message }));
}
