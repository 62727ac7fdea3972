// Which fields of the records a notification list's GraphQL selection reads, so that the list
// reads only their columns (a whole row is most of a page's statement, and of what the page then
// decodes). A field of the Notification type reads the record fields the field table gives it
// (domain/notification-fields.ts) or, when it derives its value, those DERIVED_READS names; its
// resolver is typed to receive no more (ReadsOf). A field found in neither reads the whole record.
import { collectSubFields } from "@graphql-tools/utils";
import { type FieldNode, getNamedType, type GraphQLObjectType, type GraphQLResolveInfo, isObjectType } from "graphql";
import { NOTIFICATION_FIELDS } from "../../domain/notification-fields.ts";
import type { NotificationRecord } from "../../domain/notification.ts";

type RecordField = keyof NotificationRecord;

/** Fields of Notification that derive their value from record fields other than their own. */
export const DERIVED_READS = {
  display: ["scope", "title", "body", "severity", "displayOverrides"],
  engagement: ["engagementId"],
  session: ["sessionId"],
  deliveries: ["id"],
  lastInvocation: ["id"],
  __typename: [],
} as const satisfies Record<string, readonly RecordField[]>;

/** What the resolver of a derived field may read of the record. */
export type ReadsOf<F extends keyof typeof DERIVED_READS> = Pick<NotificationRecord, (typeof DERIVED_READS)[F][number]>;

const readsByGraphqlField = new Map<string, readonly RecordField[]>(Object.entries(DERIVED_READS));
for (const [field, places] of Object.entries(NOTIFICATION_FIELDS) as [RecordField, { graphql: readonly string[] }][]) {
  for (const name of places.graphql) readsByGraphqlField.set(name, [...(readsByGraphqlField.get(name) ?? []), field]);
}

/**
 * The record fields that the selection of a notification connection's `edges { node }` reads, with
 * fragments, aliases and @skip/@include applied as execution applies them; null (read everything)
 * when it selects a field this module does not know.
 */
export function connectionNodeFields(info: GraphQLResolveInfo): RecordField[] | null {
  const connection = getNamedType(info.returnType);
  if (!isObjectType(connection)) return null;
  const edges = selected(info, connection, [...info.fieldNodes], "edges");
  if (!edges) return null;
  const nodes = selected(info, edges.type, edges.nodes, "node");
  if (!nodes) return null;
  const fields: RecordField[] = [];
  for (const name of selectedNames(info, nodes.type, nodes.nodes)) {
    const reads = readsByGraphqlField.get(name);
    if (!reads) return null;
    fields.push(...reads);
  }
  return fields;
}

/** The nodes of the field `name` selected on `type` (under any alias), and its object type. */
function selected(
  info: GraphQLResolveInfo,
  type: GraphQLObjectType,
  fieldNodes: FieldNode[],
  name: string,
): { type: GraphQLObjectType; nodes: FieldNode[] } | null {
  const field = type.getFields()[name];
  const fieldType = field && getNamedType(field.type);
  if (!fieldType || !isObjectType(fieldType)) return null;
  const nodes = collected(info, type, fieldNodes).filter((node) => node.name.value === name);
  return { type: fieldType, nodes };
}

function selectedNames(info: GraphQLResolveInfo, type: GraphQLObjectType, fieldNodes: FieldNode[]): Set<string> {
  return new Set(collected(info, type, fieldNodes).map((node) => node.name.value));
}

function collected(info: GraphQLResolveInfo, type: GraphQLObjectType, fieldNodes: FieldNode[]): FieldNode[] {
  if (fieldNodes.length === 0) return [];
  const { fields, patches } = collectSubFields(info.schema, info.fragments, info.variableValues, type, fieldNodes);
  return [...fields.values(), ...patches.flatMap((patch) => [...patch.fields.values()])].flat();
}
