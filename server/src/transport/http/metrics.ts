// Prometheus metrics at /metrics: GraphQL request and phase timings (request-metrics.ts) and root
// resolver timings (timeRootFields), under the names graphql-yoga's plugin gave them, and Herald's
// own, prefixed herald_. Each Herald owns its registry (no global), so
// several servers in one process (tests) never mix their numbers.
import { timingSafeEqual } from "node:crypto";
import { defaultFieldResolver, type GraphQLField, type GraphQLSchema } from "graphql";
import type { Plugin } from "graphql-yoga";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { HeraldObserver } from "../../events/observer.ts";
import { useRequestMetrics } from "./request-metrics.ts";

/** Producers name their plugin freely; past this many distinct names the rest share one label. */
const MAX_PLUGIN_LABELS = 200;
const OTHER_PLUGINS = "_other";

export interface MetricsSources {
  /** Open person event streams and producer invocation streams of this instance. */
  openStreams(): number;
  /** Open graphql-sse single-connection streams (each also counts against its credential's stream cap). */
  openConnections(): number;
}

export class HeraldMetrics implements HeraldObserver {
  readonly registry = new Registry();
  private readonly publishes: Counter<"plugin">;
  private readonly slowConsumerCloses: Counter<"reason">;
  private readonly labelFailures: Counter;
  private readonly renders: Counter;
  private readonly eventLag: Histogram;
  private readonly heldStreams = new Map<string, number>();
  private readonly pluginLabels = new Set<string>();

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: "herald_open_streams",
      help: "Open event streams (person notificationEvents and producer actionInvocations) on this instance",
      registers,
      collect() {
        this.set(sources.openStreams());
      },
    });
    new Gauge({
      name: "herald_open_single_connections",
      help: "Open graphql-sse single-connection streams on this instance, idle or carrying subscriptions",
      registers,
      collect() {
        this.set(sources.openConnections());
      },
    });
    const held = this.heldStreams;
    new Gauge({
      name: "herald_held_persons",
      help: "Persons with an open stream that is holding new notifications back for quiet mode",
      registers,
      collect() {
        this.set(held.size);
      },
    });
    this.slowConsumerCloses = new Counter({
      name: "herald_slow_consumer_closes_total",
      help: "Streams closed because their client fell behind (queue: live events, bytes: unsent output)",
      labelNames: ["reason"],
      registers,
    });
    this.eventLag = new Histogram({
      name: "herald_event_lag_seconds",
      help: "Time from an event's commit to its fan-out on this instance",
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.renders = new Counter({
      name: "herald_live_renders_total",
      help: "Live events rendered, one per group of alike subscriptions (compare with the deliveries they served)",
      registers,
    });
    this.labelFailures = new Counter({
      name: "herald_labels_unavailable_total",
      help: "Agent-session labels that could not be read, made or stored (the completion notification was sent anyway)",
      registers,
    });
    this.publishes = new Counter({
      name: "herald_publishes_total",
      help: `Notifications published (created or revised), by source plugin (past ${MAX_PLUGIN_LABELS} plugins: ${OTHER_PLUGINS})`,
      labelNames: ["plugin"],
      registers,
    });
  }

  published(plugin: string): void {
    if (!this.pluginLabels.has(plugin)) {
      if (this.pluginLabels.size >= MAX_PLUGIN_LABELS) plugin = OTHER_PLUGINS;
      else this.pluginLabels.add(plugin);
    }
    this.publishes.inc({ plugin });
  }

  labelsUnavailable(): void {
    this.labelFailures.inc();
  }

  rendered(): void {
    this.renders.inc();
  }

  fannedOut(lagMs: number): void {
    this.eventLag.observe(lagMs / 1000);
  }

  slowConsumerClosed(reason: "queue" | "bytes"): void {
    this.slowConsumerCloses.inc({ reason });
  }

  holding(personId: string, held: boolean): void {
    const streams = (this.heldStreams.get(personId) ?? 0) + (held ? 1 : -1);
    if (streams > 0) this.heldStreams.set(personId, streams);
    else this.heldStreams.delete(personId);
  }
}

export interface MetricsEndpointOptions {
  metrics: HeraldMetrics;
  schema: GraphQLSchema;
  /** Bearer token a scraper must send; without one the endpoint answers 404. */
  token: string | undefined;
}

/** Request, phase and root-field timings into the registry, and the guarded /metrics endpoint. */
export function useMetrics({ metrics, schema, token }: MetricsEndpointOptions): Plugin<{ [RESOLVER_TIMES]?: ResolverTimes }> {
  const resolverTimes = timeRootFields(schema, metrics.registry);
  return {
    onPluginInit({ addPlugin }) {
      // Queries and mutations only: timing the subscribe phase wrapped every event of every open
      // stream in up to three more iterator layers (bench/history.md, "Render once: live fan-out");
      // open streams are herald_open_streams, and slow-consumer closes are counted too. Resolver
      // times are timeRootFields' (root fields only, without wrapping every field).
      addPlugin(useRequestMetrics(metrics.registry));
    },
    onContextBuilding({ extendContext }) {
      extendContext({ [RESOLVER_TIMES]: resolverTimes });
    },
    onRequest({ url, request, endResponse, fetchAPI }) {
      if (url.pathname !== "/metrics") return;
      if (!token) return endResponse(new fetchAPI.Response("Not found", { status: 404 }));
      if (!bearerMatches(request.headers.get("authorization"), token)) {
        return endResponse(new fetchAPI.Response("Unauthorized", { status: 401, headers: { "www-authenticate": 'Bearer realm="herald-metrics"' } }));
      }
      return metrics.registry.metrics().then((text) => {
        endResponse(new fetchAPI.Response(text, { headers: { "content-type": metrics.registry.contentType } }));
      });
    },
  };
}

function bearerMatches(header: string | null, token: string): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Where a request's root fields report their time: the context of each request, per server. */
const RESOLVER_TIMES = Symbol("herald.resolverTimes");
type ResolverTimes = Histogram<"operationType" | "fieldName" | "typeName" | "returnType">;
const timedFields = new WeakSet<GraphQLField<unknown, unknown>>();

/**
 * graphql_envelop_execute_resolver for the root fields of queries and mutations, under the name and
 * labels of graphql-yoga's Prometheus plugin, which times resolvers by wrapping every field of the
 * schema and choosing per call which to observe: about 2% of a list's CPU, for fields it never
 * observes. The schema is shared by every server in a process, so its root fields are wrapped
 * once, and each call reports to the histogram its request's context carries.
 */
function timeRootFields(schema: GraphQLSchema, registry: Registry): ResolverTimes {
  const times = new Histogram({
    name: "graphql_envelop_execute_resolver",
    help: "Time spent on running the GraphQL resolvers",
    labelNames: ["operationType", "fieldName", "typeName", "returnType"],
    registers: [registry],
  });
  const roots = [
    ["query", schema.getQueryType()],
    ["mutation", schema.getMutationType()],
  ] as const;
  for (const [operationType, type] of roots) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      if (timedFields.has(field)) continue;
      timedFields.add(field);
      const labels = { operationType, fieldName: field.name, typeName: type!.name, returnType: field.type.toString() };
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        const histogram = (context as { [RESOLVER_TIMES]?: ResolverTimes } | undefined)?.[RESOLVER_TIMES];
        if (!histogram) return resolve(source, args, context, info);
        const start = performance.now();
        const observe = () => histogram.observe(labels, (performance.now() - start) / 1000);
        let result: unknown;
        try {
          result = resolve(source, args, context, info);
        } catch (error) {
          observe();
          throw error;
        }
        if (result instanceof Promise) return result.finally(observe);
        observe();
        return result;
      };
    }
  }
  return times;
}
