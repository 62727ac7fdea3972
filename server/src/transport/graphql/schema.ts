// Assembles the GraphQL schema from the type and operation modules (imported for their effect).
import "./types/scalars.ts";
import "./types/enums.ts";
import "./types/directory.ts";
import "./types/notification.ts";
import "./types/inputs.ts";
import "./types/results.ts";
import "./queries.ts";
import "./mutations.ts";
import "./subscriptions.ts";
import { lexicographicSortSchema } from "graphql";
import { builder } from "./builder.ts";
import { guardTextArguments } from "./safe-text.ts";

export const schema = guardTextArguments(lexicographicSortSchema(builder.toSchema()));
