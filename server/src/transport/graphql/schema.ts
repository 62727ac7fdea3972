// Assembles the GraphQL schema: one file per entity, each adding its types, reads, changes and
// streams to the builder (imported for that effect). A new entity is one file and one line here.
import "./enums.ts";
import "./errors.ts";
import "./notification.ts";
import "./producer.ts";
import "./invocations.ts";
import "./directory.ts";
import "./auth.ts";
import "./sessions.ts";
import "./events.ts";
import "./companion.ts";
import "./assets.ts";
import "./channels.ts";
import { lexicographicSortSchema } from "graphql";
import { builder } from "./builder.ts";
import { guardTextArguments } from "./safe-text.ts";

export const schema = guardTextArguments(lexicographicSortSchema(builder.toSchema()));
