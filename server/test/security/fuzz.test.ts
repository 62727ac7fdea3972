// A bounded, seeded fuzz run against both endpoints (JSON, multipart uploads mapped or not, GETs
// with malformed parameters), with and without credentials: never a 500,
// never a stack trace or path in a response, nothing written by a request that failed, and no
// stream left open once its client went away. The heap and the run's wall time over the same
// cases are measured by bench:retention.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../support/schema.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";
import { fuzzGetParams, fuzzRequest, fuzzUpload, seededRandom } from "./fuzz.ts";
import { leaks } from "./wire.ts";
import { eventually } from "../support/sse.ts";

const CASES = Number(process.env.HERALD_FUZZ_CASES ?? 2_000);
const SEED = Number(process.env.HERALD_FUZZ_SEED ?? 20_261_130);
const TABLES = [
  "Person",
  "Credential",
  "SignInCode",
  "Session",
  "Engagement",
  "EngagementMember",
  "RememberedFact",
  "Notification",
  "NotificationReceipt",
  "NotificationEvent",
  "EventCounter",
  "ServerSetting",
  "Asset",
  "AssetReference",
  "ActionInvocation",
];

for (const provider of providers) {
  describe.skipIf(!provider.available)(`fuzzing on ${provider.name}`, () => {
    let h: TestHerald;
    let credentials: (string | null)[];

    beforeAll(async () => {
      h = await startHerald(provider);
      const ada = await h.newPerson("Ada");
      await h.publish({ scope: "PERSON", personId: ada.id, key: "seed", title: "Seed" });
      credentials = [null, ada.token, h.producerKey, "herald_pt_forged", "Basic abc"];
    });
    afterAll(async () => h?.close());

    /** Every table's row count in one round trip. */
    const rowCounts = async (): Promise<string> => {
      const schemaName = new URL(h.herald.database.url.replace(/^file:/, "http://x/")).searchParams.get("schema");
      const table = (name: string) => (schemaName ? `"${schemaName}"."${name}"` : `"${name}"`);
      const rows = await storeOf(h.herald.database).sql(`SELECT ${TABLES.map((t) => `(SELECT count(*) FROM ${table(t)}) AS "${t}"`).join(", ")}`);
      return JSON.stringify(rows[0], (_k, v) => (typeof v === "bigint" ? Number(v) : v));
    };

    it(`answers ${CASES} seeded hostile requests without a 500, a leak or a partial write`, { timeout: 180_000 }, async () => {
      const r = seededRandom(SEED);
      const streamUrl = h.url.replace(/graphql$/, "graphql/stream");
      const failures: string[] = [];
      const statuses: Record<number, number> = {};
      let counts = await rowCounts();
      for (let i = 0; i < CASES; i++) {
        const request = fuzzRequest(r, schema);
        const token = r.pick(credentials);
        const shape = r.chance(0.15) ? "upload" : r.chance(0.15) ? "get" : "json";
        const toStream = shape !== "upload" && r.chance(0.4);
        const controller = new AbortController();
        const authorization: Record<string, string> = token ? { authorization: token.startsWith("Basic") ? token : `Bearer ${token}` } : {};
        const accept = toStream ? "text/event-stream" : "application/json";
        const url = toStream ? streamUrl : h.url;
        const response =
          shape === "upload"
            ? await fetch(url, { method: "POST", headers: authorization, body: fuzzUpload(r), signal: controller.signal })
            : shape === "get"
              ? await fetch(`${url}?${fuzzGetParams(r)}`, { headers: { accept, ...authorization }, signal: controller.signal })
              : await fetch(url, {
                  method: "POST",
                  headers: { "content-type": "application/json", accept, ...authorization },
                  body: JSON.stringify({ query: request.query, variables: request.variables }),
                  signal: controller.signal,
                });
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        // A stream's first chunk says whether it was accepted; then the client goes away.
        let text: string;
        if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
          const { value } = await response.body!.getReader().read();
          text = new TextDecoder().decode(value);
          controller.abort();
        } else {
          text = await response.text();
        }
        const what = `case ${i} (${shape}, ${toStream ? "stream" : "graphql"}, ${token ? "credential" : "anonymous"}): ${shape === "json" ? request.query.slice(0, 200) : ""}`;
        if (response.status >= 500) failures.push(`${response.status} for ${what}: ${text.slice(0, 200)}`);
        if (leaks.test(text)) failures.push(`leak for ${what}: ${text.slice(0, 300)}`);
        // Nothing may be written by a request that failed as a whole.
        let body: { data?: Record<string, unknown> | null } | null = null;
        try {
          body = JSON.parse(text);
        } catch {
          // event stream or empty
        }
        const wroteNothing =
          response.status >= 400 ||
          (body !== null && Object.values(body.data ?? {}).every((v) => v === null || (v as { __typename?: string })?.__typename?.endsWith("Error")));
        const now = await rowCounts();
        if (wroteNothing && now !== counts) failures.push(`partial write for ${what}: ${counts} -> ${now}`);
        counts = now;
      }
      console.log(`[fuzz ${provider.name}] ${CASES} cases (seed ${SEED}); statuses ${JSON.stringify(statuses)}`);
      expect(failures.slice(0, 10)).toEqual([]);
      // Every stream a case opened ended with its client: no listener or connection is left behind.
      const held = () => ({ listeners: h.herald.feed.listenerCount, connections: h.herald.services.realtime.heldConnections });
      await eventually(() => held().listeners === 0 && held().connections === 0, 10_000).catch(() => undefined);
      expect(held()).toEqual({ listeners: 0, connections: 0 });
    });
  });
}
