// Optional OpenTelemetry traces (@envelop/opentelemetry): a span per GraphQL execution (the
// producer HTTP API's included), exported over OTLP/HTTP. Off unless an OTLP endpoint is
// configured; the provider is Herald's own, not the process-global one, so an embedding
// application's tracing is left alone.
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { Plugin } from "graphql-yoga";

export interface Tracing {
  plugin: Plugin;
  /** Sends what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** The OTLP/HTTP traces URL (…/v1/traces); spans are batched to it. */
  otlpTracesUrl?: string | undefined;
  /** Another exporter, each span sent as it ends (embedders and tests). */
  exporter?: SpanExporter | undefined;
  serviceName?: string;
}

/**
 * Null when neither an endpoint nor an exporter is given: tracing is off and costs nothing, not
 * even loading the SDK (the OTLP exporter brings protobufjs), which every start would pay.
 */
export async function createTracing({ otlpTracesUrl, exporter, serviceName = "herald" }: TracingOptions): Promise<Tracing | null> {
  if (!exporter && !otlpTracesUrl) return null;
  const [{ useOpenTelemetry }, { SpanKind }, { Resource }, sdk] = await Promise.all([
    import("@envelop/opentelemetry"),
    import("@opentelemetry/api"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace-base"),
  ]);
  const processor = exporter
    ? new sdk.SimpleSpanProcessor(exporter)
    : new sdk.BatchSpanProcessor(new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter({ url: otlpTracesUrl }));
  const provider = new sdk.BasicTracerProvider({ resource: new Resource({ "service.name": serviceName }), spanProcessors: [processor] });
  return {
    // Variables and results stay out of spans: they carry people's notifications. Documents are
    // kept only when they have no inline arguments (the plugin's own rule), for the same reason.
    plugin: useOpenTelemetry({ document: true, variables: false, result: false, resolvers: false }, provider, SpanKind.SERVER, {}, serviceName) as Plugin,
    shutdown: () => provider.shutdown(),
  };
}
