// The cost limit against the SDK's own documents: every operation the SDK sends, at the largest
// page it may ask for, must pass, so a field added to a fragment cannot silently break a client.
import { Kind, parse, type DocumentNode, type OperationDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";
import * as sdkDocuments from "../../../sdk/src/generated/graphql.ts";
import { limits } from "../../src/domain/limits.ts";
import { schema } from "../../src/transport/graphql/schema.ts";
import { queryCost } from "../../src/transport/http/query-cost.ts";

const pages = { defaultPageSize: limits.defaultPageSize, maxPageSize: limits.pageSize };
const cost = (document: DocumentNode, variables: Record<string, unknown> = {}) => queryCost({ schema, document, variables }, pages);

const operations = Object.entries(sdkDocuments)
  .filter(([name]) => name.endsWith("Document"))
  .map(([name, source]) => {
    // The SDK keeps each document as its source; the server's checks read an AST.
    const document = parse(String(source));
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const pageVariables = (operation.variableDefinitions ?? []).map((v) => v.variable.name.value).filter((v) => v === "first" || v === "last");
    return { name, document, pageVariables };
  });

describe("query cost", () => {
  it("finds the SDK's documents, paged ones among them", () => {
    expect(operations.length).toBeGreaterThan(30);
    expect(operations.filter((o) => o.pageVariables.length > 0).map((o) => o.name)).toEqual(
      expect.arrayContaining(["NotificationsPageDocument", "ActionInvocationPageDocument"]),
    );
  });

  it.each(operations.map((o) => [o.name, o] as const))("passes %s at every page size it may ask for", (_name, { document, pageVariables }) => {
    for (const variable of [null, ...pageVariables]) {
      const variables = variable ? { [variable]: limits.pageSize } : {};
      expect(cost(document, variables)).toBeLessThanOrEqual(limits.queryCost);
    }
  });

  it("costs a page the same whether its size is written in the document or passed as a variable", () => {
    const fields = "id key title display { title body } source { plugin }";
    const literal = parse(`{ notifications(first: 100) { edges { cursor node { ${fields} } } totalCount } }`);
    const variable = parse(`query($n: Int) { notifications(first: $n) { edges { cursor node { ${fields} } } totalCount } }`);
    const defaulted = parse(`query($n: Int = 100) { notifications(first: $n) { edges { cursor node { ${fields} } } totalCount } }`);
    const expected = cost(literal);
    expect(expected).toBeGreaterThan(100 * 8);
    expect(cost(variable, { n: 100 })).toBe(expected);
    expect(cost(defaulted)).toBe(expected);
    // Absent, the default page; past the most a page holds, the most (the field refuses it by name).
    expect(cost(variable)).toBe(cost(parse(`{ notifications(first: ${limits.defaultPageSize}) { edges { cursor node { ${fields} } } totalCount } }`)));
    expect(cost(variable, { n: 1_000_000 })).toBe(expected);
  });

  it("costs a union's dearest member, not every member together", () => {
    const member = parse(`mutation { dismissNotification(id: "x") { __typename ... on Notification { id title body } ... on NotFoundError { message } } }`);
    const both = parse(
      `mutation { dismissNotification(id: "x") { __typename ... on Notification { id title body } ... on RevisionConflictError { message current { id title body } } } }`,
    );
    expect(cost(member)).toBe(1 + 3);
    expect(cost(both)).toBe(1 + 1 + 1 + 3);
  });
});
