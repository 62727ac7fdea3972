// The one Pothos builder every entity file adds its types and fields to, with the scalars and
// the three root types. schema.ts imports the entity files and prints the result.
import SchemaBuilder from "@pothos/core";
import RelayPlugin from "@pothos/plugin-relay";
import { DateTimeResolver, JSONResolver } from "graphql-scalars";
import type { JsonValue } from "../../domain/json.ts";
import type { GraphQLContext } from "./context.ts";

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: JsonValue; Output: JsonValue };
    /** A multipart upload's file part (GraphQL multipart request spec; Yoga parses it). */
    File: { Input: File; Output: never };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [RelayPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: "omit",
    cursorType: "String",
    // Notifications are fetched by their own query; a global `node` field would be a second
    // door to guard for nothing.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
});

/** The builder's type parameters, for helpers that take or return its refs. */
export type HeraldTypes = typeof builder.$inferSchemaTypes;

builder.addScalarType("DateTime", DateTimeResolver);
builder.addScalarType("JSON", JSONResolver);
builder.scalarType("File", {
  description: "A file sent as a part of a multipart request (GraphQL multipart request specification).",
  serialize: () => {
    throw new Error("File is an input-only scalar");
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
