// Probes for load balancers and orchestrators, answered without a credential: they reveal only
// which part is up. GET /health: alive (the process serves HTTP; the store was migrated before);
// /ready also checks every part a request needs (the store, and Redis when configured).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Plugin } from "graphql-yoga";
import type { Logger } from "../../logger.ts";

/** Named checks; each resolves when its part answers. */
export type ReadinessChecks = Record<string, () => Promise<void>>;

/** A part that does not answer within this is as good as down: a probe must not hang. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * GET /ready. Herald's own rather than graphql-yoga's useReadinessCheck, which tests every
 * request's URL against a URLPattern (about 20 µs of each publish's CPU, bench/history.md).
 */
export function useReadiness(checks: ReadinessChecks, logger: Logger): Plugin {
  return {
    async onRequest({ url, endResponse }) {
      if (url.pathname !== "/ready") return;
      const names = Object.keys(checks);
      const outcomes = await Promise.all(names.map((name) => withTimeout(checks[name]!())));
      const report: Record<string, "ok" | "failed"> = {};
      let ready = true;
      names.forEach((name, i) => {
        const failure = outcomes[i];
        report[name] = failure ? "failed" : "ok";
        if (failure) {
          ready = false;
          // The reason stays in the log: it may name hosts or users a probe has no business seeing.
          logger.warn({ check: name, err: failure }, "readiness check failed");
        }
      });
      endResponse(Response.json({ status: ready ? "ready" : "unavailable", checks: report }, { status: ready ? 200 : 503 }));
    },
  };
}

/** Resolves to the failure's message, or null when the check passed in time. */
async function withTimeout(check: Promise<void>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check.then(() => null), timeout]);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export function withHealth(next: Handler): Handler {
  return (request, response) => {
    if (request.url !== "/health" || (request.method !== "GET" && request.method !== "HEAD")) return next(request, response);
    const body = JSON.stringify({ status: "ok" });
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "cache-control": "no-store" });
    response.end(request.method === "HEAD" ? undefined : body);
  };
}
