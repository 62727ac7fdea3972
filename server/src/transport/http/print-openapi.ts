// Prints the producer API's OpenAPI document to stdout, exactly as the server serves it at
// /api/v1/openapi.json; scripts/generate.ts writes it to docs/openapi.json.
import { createYoga } from "graphql-yoga";
import { pino } from "pino";
import { schema } from "../graphql/schema.ts";
import { producerApiDocument, useProducerApi } from "./producer-api.ts";

const yoga = createYoga({ schema, logging: false, plugins: [useProducerApi({ logger: pino({ level: "silent" }) })] });
const response = await yoga.fetch(`http://herald.invalid${producerApiDocument}`);
if (response.status !== 200) throw new Error(`the OpenAPI document answered HTTP ${response.status}`);
process.stdout.write(`${JSON.stringify(await response.json(), null, 2)}\n`);
