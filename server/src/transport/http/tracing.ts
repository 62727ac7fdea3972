// Optional OpenTelemetry traces (@envelop/opentelemetry): a span per GraphQL execution (the
// producer HTTP API's included), exported over OTLP/HTTP. Off unless an OTLP endpoint is
// configured; the provider is Herald's own, not the process-global one, so an embedding
// application's tracing is left alone.
import { useOpenTelemetry } from "@envelop/opentelemetry";
import { SpanKind } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { Resource } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
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

/** Null when neither an endpoint nor an exporter is given: tracing is off and costs nothing. */
export function createTracing({ otlpTracesUrl, exporter, serviceName = "herald" }: TracingOptions): Tracing | null {
  if (!exporter && !otlpTracesUrl) return null;
  const processor = exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(new OTLPTraceExporter({ url: otlpTracesUrl }));
  const provider = new BasicTracerProvider({ resource: new Resource({ "service.name": serviceName }), spanProcessors: [processor] });
  return {
    // Variables and results stay out of spans: they carry people's notifications. Documents are
    // kept only when they have no inline arguments (the plugin's own rule), for the same reason.
    plugin: useOpenTelemetry({ document: true, variables: false, result: false, resolvers: false }, provider, SpanKind.SERVER, {}, serviceName) as Plugin,
    shutdown: () => provider.shutdown(),
  };
}
