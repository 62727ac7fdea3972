// GraphQL Code Generator: typed documents for the SDK from the server's printed schema.
// Run by `npm run generate`; the output is checked for drift in CI and never edited by hand.
// typescript-operations 6 emits the input and enum types the operations use by itself.
import type { CodegenConfig } from "@graphql-codegen/cli";

const config: CodegenConfig = {
  schema: "server/schema.graphql",
  documents: ["sdk/src/operations/**/*.graphql"],
  generates: {
    "sdk/src/generated/graphql.ts": {
      plugins: ["typescript-operations", "typed-document-node"],
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
        immutableTypes: false,
        skipTypename: false,
        nonOptionalTypename: true,
        scalars: { DateTime: "string", JSON: "unknown", ID: "string", File: "Blob" },
        strictScalars: true,
      },
    },
  },
  hooks: { afterAllFileWrite: [] },
};

export default config;
