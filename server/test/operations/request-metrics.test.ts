// GraphQL request metrics (transport/http/request-metrics.ts) keep the series graphql-yoga's and
// envelop's Prometheus plugins recorded, so dashboards built on them go on working: after one
// request of each kind (a mutation, queries, a document that does not parse, one that does not
// validate, a field error, a refused credential, introspection) every series counts what those
// plugins counted for the same requests, and nothing else appears.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

const metricsToken = "scrape-token-0123456789";

describe("GraphQL request metrics", () => {
  let h: TestHerald;
  beforeAll(async () => {
    h = await startHerald(providers[0]!, { metricsToken });
  });
  afterAll(async () => h?.close());

  const post = async (query: string, token?: string, variables?: unknown) => {
    const response = await fetch(h.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return response.status;
  };

  it("counts each phase, error and response as graphql-yoga's and envelop's plugins did", async () => {
    const person = await h.newPerson("Ada");
    const publish = `mutation($i: PublishNotificationInput!) { publishNotification(input: $i) { __typename } }`;
    expect(await post(publish, h.producerKey, { i: { scope: "PERSON", personId: person.id, key: "k", title: "t", source: { plugin: "p" } } })).toBe(200);
    const before = await scrape();
    expect(await post(`{ notifications(first: 2) { edges { node { id } } } }`, person.token)).toBe(200);
    expect(await post(`{ notifications(first: 2) { edges { node { id } } `, person.token)).toBe(200); // does not parse
    expect(await post(`{ nope }`, person.token)).toBe(200); // does not validate
    expect(await post(`{ notificationCounts { total } }`)).toBe(200); // no credential: a field error
    expect(await post(`{ notificationCounts { total } }`, "herald_pt_unknown")).toBe(401); // refused while the context is built
    expect(await post(`{ __schema { queryType { name } } }`, person.token)).toBe(200);
    expect(await post(`mutation { markNotificationsSeen(ids: ["x"]) { id } }`, person.token)).toBe(200);

    const after = await scrape();
    const counted = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
    const changed = [...after.keys()].filter((series) => counted(series) !== 0).sort();
    expect(Object.fromEntries(changed.map((series) => [series, counted(series)]))).toEqual({
      'graphql_yoga_http_duration_count{method="POST",statusCode="200",operationType="query"}': 4,
      'graphql_yoga_http_duration_count{method="POST",statusCode="200",operationType="mutation"}': 1,
      'graphql_yoga_http_duration_count{method="POST",statusCode="401",operationType="query"}': 1,
      'graphql_envelop_phase_parse_count{operationType="query"}': 4,
      'graphql_envelop_phase_parse_count{operationType="mutation"}': 1,
      'graphql_envelop_phase_parse_count{operationType="undefined"}': 1,
      'graphql_envelop_phase_validate_count{operationType="query"}': 4,
      'graphql_envelop_phase_validate_count{operationType="mutation"}': 1,
      'graphql_envelop_phase_context_count{operationType="query"}': 2,
      'graphql_envelop_phase_context_count{operationType="mutation"}': 1,
      'graphql_envelop_phase_execute_count{operationType="query"}': 2,
      'graphql_envelop_phase_execute_count{operationType="mutation"}': 1,
      'graphql_envelop_request_duration_count{operationType="query"}': 2,
      'graphql_envelop_request_duration_count{operationType="mutation"}': 1,
      'graphql_envelop_request{operationType="query"}': 2,
      'graphql_envelop_request{operationType="mutation"}': 1,
      'graphql_envelop_error_result{operationType="undefined",phase="parse"}': 1,
      'graphql_envelop_error_result{operationType="query",phase="validate"}': 1,
      'graphql_envelop_error_result{operationType="query",phase="execute"}': 1,
      'graphql_envelop_error_result{operationType="query",phase="context"}': 1,
      'graphql_envelop_execute_resolver_count{operationType="query",fieldName="notifications",typeName="Query",returnType="NotificationConnection!"}': 1,
      'graphql_envelop_execute_resolver_count{operationType="query",fieldName="notificationCounts",typeName="Query",returnType="NotificationCounts!"}': 1,
      'graphql_envelop_execute_resolver_count{operationType="mutation",fieldName="markNotificationsSeen",typeName="Mutation",returnType="[Notification!]!"}': 1,
    });
    expect(after.get("graphql_envelop_schema_change")).toBe(1);
  });

  /** Every graphql_ series but buckets and sums (which depend on timing), by its line's name and labels. */
  async function scrape(): Promise<Map<string, number>> {
    const response = await fetch(h.url.replace(/\/graphql$/, "/metrics"), { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(response.status).toBe(200);
    const series = new Map<string, number>();
    for (const line of (await response.text()).split("\n")) {
      if (!line.startsWith("graphql_") || /_(bucket|sum)[{ ]/.test(line)) continue;
      const at = line.lastIndexOf(" ");
      series.set(line.slice(0, at), Number(line.slice(at + 1)));
    }
    return series;
  }
});
