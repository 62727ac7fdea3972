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
import "./events.ts";
import "./companion.ts";
import { lexicographicSortSchema } from "graphql";
import { builder } from "./builder.ts";

export const schema = lexicographicSortSchema(builder.toSchema());
