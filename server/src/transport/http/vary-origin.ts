// Which CORS headers an answer carries depends on the request's Origin (credentials are allowed
// for the listed origins only), so a shared cache must key every answer by Origin: otherwise one
// origin's credentialed answer could be served to another, or an allowed origin be refused.
import type { Plugin } from "graphql-yoga";

export function useVaryOrigin(): Plugin {
  return {
    onResponse({ response }) {
      const vary = response.headers.get("vary");
      if (vary && /(^|,)\s*(origin|\*)\s*(,|$)/i.test(vary)) return;
      try {
        response.headers.append("vary", "Origin");
      } catch {
        // an immutable response (a fetched one passed through) keeps its own headers
      }
    },
  };
}
