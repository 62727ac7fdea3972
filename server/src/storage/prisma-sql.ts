// Prisma's SQL template tag, from the runtime both generated clients share: importing it from a
// generated client would load that client (and its query compiler) whichever store is in use.
export { empty, join, raw, Sql, sqltag as sql } from "@prisma/client/runtime/client";
