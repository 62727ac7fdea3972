// Optional OpenTelemetry traces: off by default; with an exporter every GraphQL execution (the
// producer HTTP API's too) is a span, without the variables; with an OTLP endpoint the spans are
// sent to it over real HTTP.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createHerald, type Herald, type HeraldOptions, type RunningServer, startServer } from "@herald/server/app";
import { loadConfig, type Tuning, tuningFrom } from "@herald/server/config";
import { gql } from "../support/graphql.ts";
import { providers, type TestDatabase } from "../support/providers.ts";

const silent = pino({ level: "silent" });
let running: { herald: Herald; server: RunningServer; database: TestDatabase; closed: boolean }[] = [];

async function serve(tuning: Partial<Tuning>, options: Partial<HeraldOptions> = {}) {
  const database = await providers[0]!.createDatabase();
  const herald = await createHerald({ databaseUrl: database.url, logger: silent, tuning, ...options });
  const server = await startServer(herald, 0, "127.0.0.1");
  const entry = { herald, server, database, closed: false };
  running.push(entry);
  const key = (await herald.services.auth.issueProducerKey("tests")).secret;
  const close = async () => {
    if (entry.closed) return;
    entry.closed = true;
    await server.close();
    await herald.close();
    await database.drop();
  };
  return { herald, url: server.url, key, close };
}

afterEach(async () => {
  for (const entry of running) {
    if (entry.closed) continue;
    await entry.server.close();
    await entry.herald.close();
    await entry.database.drop();
  }
  running = [];
});

describe("OpenTelemetry traces", () => {
  it("are off by default and on with OpenTelemetry's endpoint variables or HERALD_OTEL", async () => {
    expect(tuningFrom(loadConfig({})).otlpTracesUrl).toBeUndefined();
    expect(tuningFrom(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).otlpTracesUrl).toBe("http://collector:4318/v1/traces");
    expect(tuningFrom(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/traces" })).otlpTracesUrl).toBe("http://c:4318/traces");
    expect(tuningFrom(loadConfig({ HERALD_OTEL: "on" })).otlpTracesUrl).toBe("http://localhost:4318/v1/traces");
    expect(tuningFrom(loadConfig({ HERALD_OTEL: "off", OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).otlpTracesUrl).toBeUndefined();
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    const { herald } = await serve({});
    expect(herald.tracing).toBeNull();
  });

  it("records a span per execution, GraphQL and producer HTTP API alike, without the variables", async () => {
    const exporter = new InMemorySpanExporter();
    const { url, key } = await serve({}, { spanExporter: exporter });
    const created = await gql(`${url}/graphql`, key, "mutation CreateAda($n: String!) { createPerson(input: { name: $n }) { id } }", { n: "Ada Secret" });
    expect(created.errors).toBeUndefined();
    const rest = await fetch(`${url}/api/v1/create-person`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ input: { name: "Grace Secret" } }),
    });
    expect(rest.status).toBe(200);
    const spans = exporter.getFinishedSpans();
    const graphql = spans.find((s) => s.name === "mutation.CreateAda");
    expect(graphql?.attributes).toMatchObject({ "graphql.execute.operationType": "mutation", "graphql.execute.operationName": "CreateAda" });
    const overHttp = spans.find((s) => s.name !== "mutation.CreateAda" && s.attributes["graphql.execute.operationType"] === "mutation");
    expect(overHttp?.name).toMatch(/createPerson/);
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain("Secret");
  });

  it("sends spans to the OTLP/HTTP endpoint it is given", async () => {
    const received: string[] = [];
    const collector: Server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => {
        received.push(`${request.method} ${request.url} ${Buffer.concat(chunks).toString()}`);
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    try {
      const port = (collector.address() as AddressInfo).port;
      const served = await serve({ otlpTracesUrl: `http://127.0.0.1:${port}/v1/traces` });
      const created = await gql(`${served.url}/graphql`, served.key, 'mutation TracedCreate { createPerson(input: { name: "Ada" }) { id } }');
      expect(created.errors).toBeUndefined();
      // Spans are batched; closing the server flushes them.
      await served.close();
      expect(received.some((r) => r.startsWith("POST /v1/traces ") && r.includes("mutation.TracedCreate"))).toBe(true);
    } finally {
      await new Promise((resolve) => collector.close(resolve));
    }
  });
});
