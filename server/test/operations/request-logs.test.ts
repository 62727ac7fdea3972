// The lines Herald writes about a request name it: the access line and the errors of its
// execution, on GraphQL and the producer HTTP API alike. (The id travels on the request, not in an
// async context: docs/decisions.md, "Request ids and traces".)
import { Writable } from "node:stream";
import { eventually } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@herald/server/logger";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

describe("request ids on the server's log lines", () => {
  let h: TestHerald;
  let base: string;
  let ada: { id: string; token: string };
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean)) {
          raw.push(line);
          lines.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    // The logger `herald serve` makes, writing to the sink instead of stderr.
    h = await startHerald(providers[0]!, {}, { logger: createLogger("debug", sink) });
    base = h.url.replace(/\/graphql$/, "");
    ada = await h.newPerson("Ada");
  });
  afterAll(async () => h?.close());

  const send = (path: string, requestId: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${h.producerKey}`, "x-request-id": requestId },
      body: JSON.stringify(body),
    });
  const rename = (from: string, to: string) => storeOf(h.herald.database).sql(`ALTER TABLE "${from}" RENAME TO "${to}"`);
  const input = (extra: Record<string, unknown>) => ({ scope: "PERSON", personId: ada.id, key: "k", title: "t", source: { plugin: "ci" }, ...extra });

  it("tags the masked-error line of a GraphQL request with its id, once", async () => {
    const response = await send("/graphql", "gql-refusal-1", {
      query: "mutation($n: String!) { createPerson(input: { name: $n }) { id } }",
      variables: { n: "a\u0000b" },
    });
    expect(response.status).toBe(200);
    await eventually(() => lines.some((l) => l.requestId === "gql-refusal-1" && l.msg === "request"), 5_000, "the access line");
    const refusal = lines.filter((l) => l.code === "VALIDATION_ERROR");
    expect(refusal).toHaveLength(1);
    expect(refusal[0]).toMatchObject({ level: 20, requestId: "gql-refusal-1" });
    // Once per line, not twice: the id is not both bound and mixed in.
    const tagged = raw.filter((line) => line.includes("gql-refusal-1"));
    expect(tagged.length).toBeGreaterThanOrEqual(2);
    for (const line of tagged) expect(line.split('"requestId"').length).toBe(2);
  });

  it("tags every line of a producer API request, and logs a value the schema refuses at debug without a stack", async () => {
    const response = await send("/api/v1/publish-notification", "rest-refusal-2", { input: input({ severity: "LOUD" }) });
    expect(response.status).toBe(422);
    await eventually(() => lines.some((l) => l.requestId === "rest-refusal-2" && l.msg === "request"), 5_000, "the access line");
    const during = lines.filter((l) => typeof l.msg === "string" && /LOUD/.test(l.msg));
    expect(during.length).toBeGreaterThan(0);
    for (const line of during) expect(line).toMatchObject({ level: 20, requestId: "rest-refusal-2" });
    expect(during.some((l) => "err" in l)).toBe(false);
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
  });

  it("tags the error-level line of an unexpected failure with its id", async () => {
    // A broken store is the honest way to make the server fail: the person table is gone.
    await rename("Person", "Person_away");
    try {
      const response = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${ada.token}`, "x-request-id": "gql-broken-3" },
        body: JSON.stringify({ query: "{ viewer { id } }" }),
      });
      expect(((await response.json()) as { errors: { message: string }[] }).errors[0]!.message).toBe("Unexpected error.");
    } finally {
      await rename("Person_away", "Person");
    }
    const failures = lines.filter((l) => (l.level as number) >= 50);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ requestId: "gql-broken-3", msg: "unexpected error" });
  });

  it("tags the error-level line of an unexpected failure behind the producer API with its id", async () => {
    const before = lines.length;
    await rename("Notification", "Notification_away");
    try {
      const response = await send("/api/v1/publish-notification", "rest-broken-4", { input: input({ key: "broken" }) });
      expect(response.status).toBe(500);
      expect(JSON.stringify(await response.json())).not.toContain("Notification_away");
    } finally {
      await rename("Notification_away", "Notification");
    }
    const failures = lines.slice(before).filter((l) => (l.level as number) >= 50);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ requestId: "rest-broken-4", msg: "unexpected error" });
  });

  it("writes lines outside a request without an id", async () => {
    h.herald.logger.info("outside any request");
    const outside = lines.find((l) => l.msg === "outside any request");
    expect(outside).toBeDefined();
    expect(outside).not.toHaveProperty("requestId");
  });
});
