// A GraphQL GET carries variables and extensions as JSON in its query string. Yoga parses them
// with a bare JSON.parse whose failure surfaces as an unexpected (500, logged with its stack)
// error; a client's malformed URL is its own mistake, answered 400 before Yoga sees it.
import type { Plugin } from "graphql-yoga";
import { errorResponse } from "../../util/http-errors.ts";

const JSON_PARAMS = ["variables", "extensions"] as const;

export function useGetParams(endpoint: string): Plugin {
  return {
    onRequest({ request, url, endResponse }) {
      if (request.method !== "GET" || url.pathname !== endpoint) return;
      for (const name of JSON_PARAMS) {
        const text = url.searchParams.get(name);
        if (text === null || text === "") continue;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          return endResponse(errorResponse("BAD_REQUEST", `The URL's ${name} are not JSON`));
        }
        // null is "none given", as in a POST body.
        if (value !== null && (typeof value !== "object" || Array.isArray(value))) {
          return endResponse(errorResponse("BAD_REQUEST", `Invalid ${name}: they must be an object`));
        }
      }
    },
  };
}
