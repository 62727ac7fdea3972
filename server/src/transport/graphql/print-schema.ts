// Prints the schema SDL to stdout; scripts/generate.ts writes it to server/schema.graphql.
import { printSchema } from "graphql";
import { schema } from "./schema.ts";

process.stdout.write(`${printSchema(schema)}\n`);
