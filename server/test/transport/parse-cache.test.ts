// The parse cache keeps only documents that parsed and validated: a document refused by validation
// would otherwise stay with its errors (whose stacks hold the validator's visitors and contexts)
// until pushed out, so a stream of distinct invalid documents fills the cache with the heaviest
// entries of all (bench/history.md, "Memory after long fuzzing").
import { createSchema, createYoga } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { boundedParseCache } from "../../src/util/document-limits.ts";

function server() {
  const cache = boundedParseCache(100, 10 * 1024 * 1024);
  const yoga = createYoga({
    schema: createSchema({ typeDefs: "type Query { hello: String }", resolvers: { Query: { hello: () => "hi" } } }),
    parserAndValidationCache: cache,
    plugins: [cache.forgetInvalid()],
    logging: false,
  });
  const ask = async (query: string) => {
    const response = await yoga.fetch("http://herald.test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as { data?: unknown; errors?: { message: string }[] };
  };
  return { cache, ask };
}

describe("the parse cache", () => {
  it("keeps valid documents and drops those validation refused, which are refused again when sent again", async () => {
    const { cache, ask } = server();
    for (let i = 0; i < 20; i++) {
      const answer = await ask(`{ nope${i} }`);
      expect(answer.errors?.[0]?.message).toMatch(`Cannot query field "nope${i}"`);
    }
    expect(cache.size).toBe(0);

    expect(await ask("{ hello }")).toEqual({ data: { hello: "hi" } });
    expect(await ask("{ hello }")).toEqual({ data: { hello: "hi" } });
    expect(cache.size).toBe(1);

    expect((await ask("{ nope0 }")).errors?.[0]?.message).toMatch('Cannot query field "nope0"');
    expect(cache.size).toBe(1);
  });
});
