// GraphQL request timings and counts, under the names, label sets, help texts and buckets that
// graphql-yoga's and envelop's Prometheus plugins gave them (Herald used those plugins; dashboards
// built on them keep working). Herald's own because the plugins' hooks cost 7-9% of a publish's
// throughput (bench/history.md, "Prepared statements on PostgreSQL, and what a publish paid for
// nothing"): they build and filter label objects for every observation. Here a request's
// operation type is read once, when its document is parsed. What is recorded:
// - graphql_yoga_http_duration{method,statusCode,operationType}: from the request to its response,
//   for requests whose document parsed;
// - graphql_envelop_phase_{parse,validate,context,execute}{operationType} (the context's phase is
//   timed to the context built; the plugin observed it as it began, always about 0), and for execution
//   graphql_envelop_request_duration and graphql_envelop_request too. Introspection is not timed
//   (GraphiQL asks for it); subscriptions are not (their streams are herald_open_streams);
// - graphql_envelop_error_result{operationType,phase}: one per error, in the phase it came from
//   (a document that did not parse has no type: "undefined", as the plugins recorded it);
// - graphql_envelop_schema_change: once per schema.
// No label takes a value a client chooses: operation names, URLs and error paths are left out.
import { type DocumentNode, getOperationAST, type GraphQLSchema } from "graphql";
import type { Plugin } from "graphql-yoga";
import { Counter, Histogram, type Registry } from "prom-client";

const PHASES = ["parse", "validate", "context", "execute"] as const;
type Phase = (typeof PHASES)[number];

const PHASE_HELP: Record<Phase, string> = {
  parse: 'Time spent on running GraphQL "parse" function',
  validate: 'Time spent on running GraphQL "validate" function',
  context: "Time spent on building the GraphQL context",
  execute: 'Time spent on running the GraphQL "execute" function',
};

/** A parsed operation being timed: its type, the label of every series it adds. */
interface Operation {
  operationType: string;
}

export function useRequestMetrics(registry: Registry): Plugin {
  const registers = [registry];
  const http = new Histogram({
    name: "graphql_yoga_http_duration",
    help: "Time spent on HTTP connection",
    labelNames: ["operationName", "operationType", "method", "statusCode", "url"],
    registers,
  });
  const phases = Object.fromEntries(
    PHASES.map((phase) => [
      phase,
      new Histogram({ name: `graphql_envelop_phase_${phase}`, help: PHASE_HELP[phase], labelNames: ["operationType"], registers }),
    ]),
  ) as Record<Phase, Histogram<"operationType">>;
  const requestDuration = new Histogram({
    name: "graphql_envelop_request_duration",
    help: "Time spent on running the GraphQL operation from parse to execute",
    labelNames: ["operationType"],
    registers,
  });
  const errors = new Counter({
    name: "graphql_envelop_error_result",
    help: "Counts the amount of errors reported from all phases",
    labelNames: ["operationType", "operationName", "path", "phase"],
    registers,
  });
  const requests = new Counter({
    name: "graphql_envelop_request",
    help: "Counts the amount of GraphQL requests executed through Envelop",
    labelNames: ["operationType"],
    registers,
  });
  const schemaChanges = new Counter({ name: "graphql_envelop_schema_change", help: "Counts the amount of schema changes", registers });

  const started = new WeakMap<Request, number>();
  /** The operation type of a request whose document parsed ("unknown" when it names no operation of it). */
  const parsedTypes = new WeakMap<Request, string>();
  /** Keyed by the GraphQL context: envelop builds it into the object each phase of the operation is given. */
  const operations = new WeakMap<object, Operation>();
  const counted = new WeakSet<GraphQLSchema>();
  const seconds = (since: number) => (Date.now() - since) / 1000;

  return {
    onPluginInit({ registerContextErrorHandler }) {
      registerContextErrorHandler(({ context }) => {
        const operation = operations.get(context);
        if (operation) errors.inc({ operationType: operation.operationType, phase: "context" });
      });
    },
    onSchemaChange({ schema }) {
      if (counted.has(schema)) return;
      counted.add(schema);
      schemaChanges.inc();
    },
    onRequest({ request }) {
      started.set(request, Date.now());
    },
    onParse({ context, params }) {
      const start = Date.now();
      const introspection = (typeof params.source === "string" ? params.source : params.source.body).includes("__schema");
      return ({ result }) => {
        const request = (context as { request?: Request }).request;
        if (result instanceof Error || result === null) {
          if (introspection) return;
          phases.parse.observe({ operationType: "undefined" }, seconds(start));
          errors.inc({ operationType: "undefined", phase: "parse" });
          return;
        }
        const document = result as DocumentNode;
        const params = (context as { params?: { operationName?: string | null } }).params;
        if (request) parsedTypes.set(request, getOperationAST(document, params?.operationName)?.operation ?? "unknown");
        if (introspection) return;
        // The first definition's type, as the plugins labelled it.
        const first = document.definitions[0];
        const operationType = first && "operation" in first ? first.operation : "undefined";
        operations.set(context, { operationType });
        phases.parse.observe({ operationType }, seconds(start));
      };
    },
    onValidate({ context }) {
      const operation = operations.get(context);
      if (!operation) return;
      const start = Date.now();
      return ({ valid }) => {
        phases.validate.observe(operation, seconds(start));
        if (!valid) errors.inc({ operationType: operation.operationType, phase: "validate" });
      };
    },
    onContextBuilding({ context }) {
      const operation = operations.get(context);
      if (!operation) return;
      const start = Date.now();
      return () => phases.context.observe(operation, seconds(start));
    },
    onExecute({ args }) {
      const operation = operations.get(args.contextValue as object);
      if (!operation) return;
      const start = Date.now();
      const done = () => {
        const took = seconds(start);
        phases.execute.observe(operation, took);
        requestDuration.observe(operation, took);
        requests.inc(operation);
      };
      return {
        onExecuteDone({ result }) {
          // An incremental result (@defer, @stream) is timed to its end; Herald's schema has neither.
          if (Symbol.asyncIterator in result) return { onEnd: done };
          const failed = result.errors?.length ?? 0;
          if (failed > 0) errors.inc({ operationType: operation.operationType, phase: "execute" }, failed);
          done();
          return undefined;
        },
      };
    },
    onResponse({ request, response }) {
      const start = started.get(request);
      const operationType = parsedTypes.get(request);
      if (start === undefined || operationType === undefined) return;
      http.observe({ method: request.method, statusCode: response.status, operationType }, seconds(start));
    },
  };
}
