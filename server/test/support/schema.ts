// The schema as the server publishes it (server/schema.graphql, generated from the code and
// checked for drift): the black-box suites build selections and fuzz cases from the contract.
import { readFileSync } from "node:fs";
import { buildSchema } from "graphql";

export const schema = buildSchema(readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8"));
