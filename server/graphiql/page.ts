// GraphiQL's page script: bundled by server/scripts/build-graphiql.mjs into content-hashed,
// pre-compressed assets that Herald serves under /graphql/graphiql/ (docs/decisions.md, "GraphiQL:
// CodeMirror 5, bundled by Herald"). GraphiQL 4 (CodeMirror 5), not 5 (Monaco): a fraction of the
// script to parse and compile before the editor is interactive.
//
// Nothing is sent before the person acts: the schema (Docs, completion) is asked for once the
// header editor holds a token, and again whenever it holds another one; until then GraphiQL is
// told, without a request, to set the token first. The page's <html> says which
// (data-herald-schema: waiting-for-token, requested) for tests and for anyone debugging it.
import "graphiql/style.css";
import { GraphiQL, type GraphiQLProps } from "graphiql";
import { type ExecutionResult, getOperationAST, GraphQLError, parse } from "graphql";
import { createElement } from "react";
import { createRoot } from "react-dom/client";

type Fetcher = GraphiQLProps["fetcher"];
type Result = ExecutionResult;

/** What the server put in the page (not a script: the CSP runs no inline code). */
interface PageOptions {
  title: string;
  defaultQuery: string;
  headers: string;
  defaultEditorToolsVisibility: "headers" | "variables" | boolean;
}

const ENDPOINT = new URL(location.pathname, location.href).toString();
const options = JSON.parse(document.getElementById("herald-graphiql-options")!.textContent!) as PageOptions;

function tokenOf(headers: unknown): string | null {
  try {
    const parsed = (typeof headers === "string" ? JSON.parse(headers || "{}") : headers || {}) as Record<string, unknown>;
    const name = Object.keys(parsed).find((key) => key.toLowerCase() === "authorization");
    const match = /^Bearer\s+([^\s<>]+)$/.exec(String(name === undefined ? "" : parsed[name]).trim());
    return match ? match[1]! : null;
  } catch {
    return null;
  }
}

function isSubscription(query: string, operationName?: string | null): boolean {
  try {
    return getOperationAST(parse(query), operationName ?? undefined)?.operation === "subscription";
  } catch {
    // Not parseable here: the server answers with the error.
    return false;
  }
}

/** A subscription over server-sent events on the same endpoint (what Yoga's GraphiQL did). */
async function* events(response: Response): AsyncGenerator<Result> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += value;
    let end: number;
    while ((end = buffered.indexOf("\n\n")) !== -1) {
      const message = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const event = /^event: ?(.*)$/m.exec(message)?.[1];
      const data = message
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n");
      if (event === "complete") return;
      if (data) yield JSON.parse(data) as Result;
    }
  }
}

const fetcher: Fetcher = async (params, fetcherOptions) => {
  const headers = (fetcherOptions?.headers ?? {}) as Record<string, string>;
  // GraphiQL asks for the schema as it starts; without a token that request could only fail
  // (UNAUTHENTICATED) and leave "Error fetching schema" until a reload.
  if (params.operationName === "IntrospectionQuery" && !tokenOf(headers)) {
    document.documentElement.dataset.heraldSchema = "waiting-for-token";
    return {
      errors: [
        new GraphQLError('Set your token in Headers below: {"Authorization": "Bearer <person token or producer key>"}. Docs load as soon as it is there.'),
      ],
    };
  }
  const subscription = isSubscription(params.query, params.operationName);
  const response = await fetch(ENDPOINT, {
    method: "POST",
    headers: {
      ...headers,
      "content-type": "application/json",
      accept: subscription ? "text/event-stream" : "application/graphql-response+json, application/json",
    },
    body: JSON.stringify(params),
  });
  if (subscription && response.headers.get("content-type")?.startsWith("text/event-stream")) return events(response);
  return (await response.json()) as Result;
};

let introspectedWith: string | null = null;
let pending: ReturnType<typeof setTimeout> | undefined;
function onEditHeaders(headers: string) {
  const token = tokenOf(headers);
  if (!token || token === introspectedWith) return;
  clearTimeout(pending);
  // After a pause in typing: one schema request for the token the person settled on.
  pending = setTimeout(() => {
    const refetch = document.querySelector<HTMLButtonElement>('button[aria-label^="Re-fetch GraphQL schema"]');
    if (!refetch) return;
    introspectedWith = token;
    document.documentElement.dataset.heraldSchema = "requested";
    refetch.click();
  }, 400);
}

createRoot(document.getElementById("graphiql")!).render(
  createElement(GraphiQL, {
    fetcher,
    defaultQuery: options.defaultQuery,
    headers: options.headers,
    defaultEditorToolsVisibility: options.defaultEditorToolsVisibility,
    onEditHeaders,
  }),
);
