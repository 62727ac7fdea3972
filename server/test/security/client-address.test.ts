// Whose request rate a request counts against, over real HTTP on every storage provider. The
// client address comes from X-Forwarded-For only when the socket's peer is a trusted proxy
// (HERALD_TRUSTED_PROXIES; here 127.0.0.2, a second loopback address the test connects from);
// sign-in redemption has a budget of its own per client and per code; probes are never limited.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { SIGN_IN_BUDGET } from "@herald/server/domain/limits";

const PROXY = "127.0.0.2";
const POINTS = 40;
const REDEEM = `mutation($code: String!) { redeemSignInCode(code: $code) { token } }`;

interface Answer {
  status: number;
  body: any;
}

/** A request from `from` (the socket's local address), with extra headers: what a proxy or a client sends. */
function call(url: string, options: { from?: string; headers?: Record<string, string>; method?: string; body?: unknown } = {}): Promise<Answer> {
  const text = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? (text ? "POST" : "GET"),
        localAddress: options.from ?? "127.0.0.1",
        headers: { ...(text ? { "content-type": "application/json" } : {}), ...options.headers },
      },
      (res) => {
        let data = "";
        res.on("data", (chunk: Buffer) => (data += chunk.toString()));
        res.on("end", () => {
          let body: unknown = data;
          try {
            body = JSON.parse(data);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}

const codeOf = (answer: Answer) => answer.body?.errors?.[0]?.extensions?.code as string | undefined;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`client addresses and sign-in budgets on ${provider.name}`, () => {
    let h: TestHerald;
    let base: string;

    beforeAll(async () => {
      h = await startHerald(provider, { rateLimitPoints: POINTS, rateLimitWindowSeconds: 600, trustedProxies: [PROXY] });
      base = h.url.replace(/\/graphql$/, "");
    });
    afterAll(async () => h?.close());

    const redeem = (code: string, forwardedFor: string) =>
      call(h.url, { from: PROXY, headers: { "x-forwarded-for": forwardedFor }, body: { query: REDEEM, variables: { code } } });

    it("keeps one client's junk redemptions behind a trusted proxy from refusing another person's real link", async () => {
      const attacker = "203.0.113.9";
      let answer: Answer | undefined;
      for (let i = 0; i <= SIGN_IN_BUDGET.perClient; i++) answer = await redeem(`herald_sc_junk${i}`, attacker);
      expect(codeOf(answer!)).toBe("RATE_LIMITED");
      // The proxy's own address (and every other client behind it) is untouched.
      const ada = (await gql(h.url, h.producerKey, `mutation { createPerson(input: { name: "Ada" }) { id } }`)).data.createPerson;
      const issued = await gql(h.url, h.producerKey, `mutation($id: ID!) { issueSignInCode(personId: $id) { code } }`, { id: ada.id });
      const real = await redeem(issued.data.issueSignInCode.code, "198.51.100.7");
      expect(real.status).toBe(200);
      expect(real.body.data.redeemSignInCode.token).toMatch(/^herald_pt_/);
    });

    it("limits redemptions of one code however many clients try it", async () => {
      const answers = [];
      for (let i = 0; i <= SIGN_IN_BUDGET.perCode; i++) answers.push(codeOf(await redeem("herald_sc_same-code", `198.51.100.${20 + i}`)));
      expect(answers.slice(0, SIGN_IN_BUDGET.perCode)).toEqual(Array(SIGN_IN_BUDGET.perCode).fill("UNAUTHENTICATED"));
      expect(answers.at(-1)).toBe("RATE_LIMITED");
    });

    it("ignores X-Forwarded-For from a peer that is not a trusted proxy, and never limits /health or /ready", async () => {
      // A direct client (127.0.0.1) names a fresh address every time: all of it counts against 127.0.0.1.
      let last: Answer | undefined;
      for (let i = 0; i <= POINTS; i++) last = await call(h.url, { headers: { "x-forwarded-for": `192.0.2.${i % 250}` }, body: { query: "{ __typename }" } });
      expect(last!.status).toBe(429);
      for (const path of ["/health", "/ready"]) {
        const probe = await call(`${base}${path}`);
        expect(probe.status, path).toBe(200);
      }
      // The proxy's clients are still served.
      const behindProxy = await call(h.url, { from: PROXY, headers: { "x-forwarded-for": "198.51.100.99" }, body: { query: "{ __typename }" } });
      expect(behindProxy.status).toBe(200);
    });
  });
}
