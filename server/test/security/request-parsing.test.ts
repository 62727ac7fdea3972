// How requests are read, over real HTTP: a producer API POST takes its arguments from the body
// only; malformed GET parameters are a typed 400 with no stack in the log; metric labels never
// take a value a client chose; credentialed CORS answers say they vary by Origin.
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";
import { expectRefusal, postJson, send } from "./wire.ts";

const metricsToken = "scrape-token-0123456789";
const origin = "https://dashboard.example";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`request parsing on ${provider.name}`, () => {
    let h: TestHerald;
    let base: string;
    const lines: { level: number; msg?: string; err?: { stack?: string } }[] = [];

    beforeAll(async () => {
      const sink = new Writable({
        write(chunk, _encoding, done) {
          for (const line of String(chunk).split("\n")) if (line.trim()) lines.push(JSON.parse(line));
          done();
        },
      });
      h = await startHerald(provider, { metricsToken, corsOrigins: [origin] }, { logger: pino({ level: "debug" }, sink) });
      base = h.url.replace(/\/graphql$/, "");
    });
    afterAll(async () => h?.close());

    const inbox = async (personId: string) =>
      storeOf(h.herald.database)
        .pick("Notification", ["key"], (q) => q.where("personId", "=", personId))
        .then((rows) => rows.map((r) => r.key));

    it("reads a producer API POST's arguments from its body only, never from the query string", async () => {
      const ada = await h.newPerson("Ada");
      const bob = await h.newPerson("Bob");
      const input = (personId: string, key: string) => ({ scope: "PERSON", personId, key, title: "t", source: { plugin: "tests" } });
      const smuggled = encodeURIComponent(JSON.stringify(input(bob.id, "smuggled")));
      const both = await postJson(`${base}/api/v1/publish-notification?input=${smuggled}`, { input: input(ada.id, "from-body") }, { token: h.producerKey });
      expect(both.status, both.text).toBe(200);
      expect(await inbox(ada.id)).toEqual(["from-body"]);

      // An empty body is no arguments at all, whatever the query string says.
      const empty = await send(`${base}/api/v1/publish-notification?input=${smuggled}`, { method: "POST", token: h.producerKey });
      expectRefusal(empty, 422, "VALIDATION_ERROR");
      expect(await inbox(bob.id)).toEqual([]);
    });

    it("answers malformed JSON in GET parameters with a typed 400 and logs no stack", async () => {
      const person = await h.newPerson("Cy");
      const query = encodeURIComponent("query($n: Int) { notificationCounts { total } }");
      const cases = [`variables=%7B`, `variables=%5B1%5D`, `variables=%22x%22`, `extensions=%7Bx`, `extensions=42`];
      for (const params of cases) {
        for (const path of ["/graphql", "/graphql/stream"]) {
          const before = lines.length;
          const accept = path === "/graphql" ? "application/json" : "text/event-stream";
          const r = await send(`${base}${path}?query=${query}&${params}`, { token: person.token, headers: { accept } });
          expectRefusal(r, 400, "BAD_REQUEST");
          expect(r.json?.errors?.[0]?.message).toMatch(/variables|extensions/);
          const logged = lines.slice(before);
          expect(
            logged.filter((l) => l.level >= 50 || l.err?.stack),
            JSON.stringify(logged),
          ).toEqual([]);
        }
      }
      // Well-formed ones still run.
      const fine = await send(`${base}/graphql?query=${query}&variables=%7B%22n%22%3A1%7D`, { token: person.token, headers: { accept: "application/json" } });
      expect(fine.status, fine.text).toBe(200);
    });

    it("adds no metric series for names a client chooses (aliases, paths)", async () => {
      const scrape = async () => (await send(`${base}/metrics`, { token: metricsToken })).text;
      const seriesOf = (text: string) =>
        text
          .split("\n")
          .filter((l) => l.startsWith("graphql_envelop_error_result"))
          .sort();
      // A failing field under an alias, as an anonymous caller sends it.
      const failing = (alias: string) => postJson(h.url, { query: `{ ${alias}: notificationCounts { total } }` });
      for (const alias of ["a0", "a1"]) expect((await failing(alias)).json?.errors).toBeTruthy();
      const settled = seriesOf(await scrape());
      expect(settled.length).toBeGreaterThan(0);
      for (let i = 0; i < 20; i++) await failing(`attacker_${i}`);
      const after = seriesOf(await scrape());
      expect(after.map((l) => l.replace(/ \S+$/, ""))).toEqual(settled.map((l) => l.replace(/ \S+$/, "")));
      expect(after.join("\n")).not.toMatch(/attacker_|a0|a1/);
    });

    it("marks credentialed CORS answers as varying by Origin", async () => {
      const person = await h.newPerson("Dee");
      const allowed = await send(h.url, {
        method: "POST",
        token: person.token,
        headers: { origin, "content-type": "application/json" },
        body: JSON.stringify({ query: "{ notificationCounts { total } }" }),
      });
      expect(allowed.headers.get("access-control-allow-origin")).toBe(origin);
      expect(allowed.headers.get("access-control-allow-credentials")).toBe("true");
      expect(allowed.headers.get("vary") ?? "").toMatch(/\bOrigin\b/i);
      const preflight = await send(h.url, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
      });
      expect(preflight.headers.get("vary") ?? "").toMatch(/\bOrigin\b/i);
      // Another origin's answer differs (no CORS headers): it varies by Origin as well.
      const other = await send(h.url, { method: "POST", headers: { origin: "https://evil.example", "content-type": "application/json" }, body: "{}" });
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
      expect(other.headers.get("vary") ?? "").toMatch(/\bOrigin\b/i);
      const counted = await gql(h.url, person.token, "{ notificationCounts { total } }");
      expect(counted.data.notificationCounts.total).toBe(0);
    });
  });
}
