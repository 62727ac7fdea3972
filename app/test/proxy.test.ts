// The dashboard's server side without a browser: sign-in cookie, sign-in links, and the
// GraphQL / graphql-sse proxy in both graphql-sse modes, using the SDK as the browser does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeraldClient, type NotificationEvent } from "@herald/sdk";
import { eventually, type Stack, startStack } from "./support/stack";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

function cookieOf(response: Response): string {
  return response.headers.getSetCookie().find((c) => c.startsWith("herald_token=")) ?? "";
}

async function signIn(token: string): Promise<Response> {
  return fetch(`${stack.dashboardUrl}/signin`, {
    method: "POST",
    redirect: "manual",
    // A plain form submission (no JavaScript): SvelteKit answers it with a page or a redirect.
    headers: { accept: "text/html", origin: stack.dashboardUrl, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }),
  });
}

/** A fetch that sends the sign-in cookie, as the browser does for same-origin requests. */
function withCookie(cookie: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("cookie", cookie);
    return fetch(input, { ...init, headers });
  };
}

describe("sign-in", () => {
  it("keeps a valid token in an httpOnly, SameSite=Lax cookie (not Secure over http) and redirects to /", async () => {
    const response = await signIn(stack.person.token);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
    const cookie = cookieOf(response);
    expect(cookie).toContain(`herald_token=${stack.person.token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    expect(cookie).toMatch(/Path=\//);
  });

  it("refuses a wrong token or a producer key without setting a cookie", async () => {
    for (const [token, message] of [
      ["herald_pt_not-a-real-token", "did not accept this token"],
      [stack.producerKey, "producer key, not a person token"],
    ] as const) {
      const response = await signIn(token);
      expect(response.status).toBe(400);
      expect(cookieOf(response)).toBe("");
      expect(await response.text()).toContain(message);
    }
  });

  /** The link's confirm button: a plain same-origin form POST to the link's own address. */
  function redeem(code: string, origin = stack.dashboardUrl, contentType = "application/x-www-form-urlencoded"): Promise<Response> {
    return fetch(`${stack.dashboardUrl}/signin/${code}`, {
      method: "POST",
      redirect: "manual",
      headers: { accept: "text/html", origin, "content-type": contentType },
      body: contentType.includes("json") ? "{}" : "",
    });
  }

  it("forwards each person's address, so one client's junk redemptions never refuse another person's link", async () => {
    const from = (address: string, code: string) =>
      fetch(`${stack.dashboardUrl}/signin/${code}`, {
        method: "POST",
        redirect: "manual",
        headers: { accept: "text/html", origin: stack.dashboardUrl, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": address },
        body: "",
      });
    // Herald's sign-in budget is 20 redemptions per client per 15 minutes: the 21st is refused.
    let last: Response | undefined;
    for (let i = 0; i <= 20; i++) last = await from("203.0.113.9", `herald_sc_junk-${i}`);
    expect(last!.status).toBe(400);
    expect(await last!.text()).toContain("Too many requests");
    const real = await from("198.51.100.7", await stack.newSignInCode());
    expect(real.status).toBe(303);
    expect(cookieOf(real)).toMatch(/herald_token=herald_pt_/);
  });

  it("only shows a confirm page when a sign-in link is opened (GET or HEAD): no cookie, and the code still works", async () => {
    const code = await stack.newSignInCode();
    for (let i = 0; i < 2; i++) {
      // A link-preview bot or mail scanner fetching the link, twice.
      const get = await fetch(`${stack.dashboardUrl}/signin/${code}`, { redirect: "manual" });
      expect(get.status).toBe(200);
      expect(get.headers.getSetCookie()).toEqual([]);
      expect(get.headers.get("cache-control")).toBe("no-store");
      // The code in the address never leaves the dashboard as a Referer.
      expect(get.headers.get("referrer-policy")).toBe("same-origin");
      const page = await get.text();
      expect(page).toContain("Continue to the dashboard");
      expect(page).toMatch(/<form method="POST"/);
      expect(page).not.toContain("herald_pt_");
      const head = await fetch(`${stack.dashboardUrl}/signin/${code}`, { method: "HEAD", redirect: "manual" });
      expect(head.status).toBe(200);
      expect(head.headers.getSetCookie()).toEqual([]);
    }
    const redeemed = await redeem(code);
    expect(redeemed.status).toBe(303);
    expect(cookieOf(redeemed)).toMatch(/^herald_token=herald_pt_/);
  });

  it("redeems a sign-in link by a same-origin POST once, then explains that it is used up", async () => {
    const code = stack.person.signInCode;
    expect(code).not.toBe("");
    const first = await redeem(code);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/");
    const cookie = cookieOf(first);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const token = /herald_token=([^;]+)/.exec(cookie)?.[1] ?? "";
    const client = createHeraldClient({ url: stack.heraldUrl, token });
    expect((await client.viewer()).id).toBe(stack.person.id);
    client.close();

    const again = await redeem(code);
    expect(again.status).toBe(400);
    expect(cookieOf(again)).toBe("");
    expect(await again.text()).toContain("not valid any more");
  });

  it("refuses a cross-origin POST of a sign-in link (any form encoding, or JSON) and leaves the code usable", async () => {
    const code = await stack.newSignInCode();
    for (const contentType of ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"]) {
      const foreign = await redeem(code, "https://evil.example", contentType);
      expect(foreign.status).toBe(403);
      expect(foreign.headers.getSetCookie()).toEqual([]);
    }
    // Not a form at all: a form action refuses it before running.
    const json = await redeem(code, "https://evil.example", "application/json");
    expect(json.status).toBeGreaterThanOrEqual(400);
    expect(json.headers.getSetCookie()).toEqual([]);
    const mine = await redeem(code);
    expect(mine.status).toBe(303);
    expect(cookieOf(mine)).toMatch(/^herald_token=herald_pt_/);
  });

  it("signs out by revoking the token it holds and clearing the cookie", async () => {
    // A token of its own: the others in this file keep using the stack's.
    const token = await createHeraldClient({ url: stack.heraldUrl, token: stack.producerKey }).issuePersonToken(stack.person.id, "sign-out test");
    const events: NotificationEvent[] = [];
    let ended = false;
    const live = createHeraldClient({ url: stack.heraldUrl, token });
    live.events(await live.eventsCursor(), { next: (e) => events.push(e), error: () => (ended = true), complete: () => (ended = true) });
    // The stream is open once something published reaches it.
    const producer = createHeraldClient({ url: stack.heraldUrl, token: stack.producerKey });
    await producer.publish({ scope: "PERSON", personId: stack.person.id, key: "before-sign-out", title: "before sign-out", source: { plugin: "tests" } });
    await eventually(() => events.length > 0, 10_000);
    producer.close();
    const response = await fetch(`${stack.dashboardUrl}/signout`, {
      method: "POST",
      redirect: "manual",
      headers: {
        accept: "text/html",
        origin: stack.dashboardUrl,
        "content-type": "application/x-www-form-urlencoded",
        cookie: `herald_token=${token}`,
      },
      body: "",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/signin");
    expect(cookieOf(response)).toMatch(/herald_token=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i);
    // The token is revoked, not only forgotten by this browser: a copy of it is refused, and its stream ended.
    await expect(createHeraldClient({ url: stack.heraldUrl, token }).viewer()).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await eventually(() => ended, 10_000);
    live.close();
  });

  it("sends a signed-out visitor to the sign-in page", async () => {
    const response = await fetch(`${stack.dashboardUrl}/`, { redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/signin");
  });
});

describe("proxy", () => {
  it("answers 401 without a cookie and 403 for another origin", async () => {
    const body = JSON.stringify({ query: "{ viewer { id } }" });
    const anonymous = await fetch(`${stack.dashboardUrl}/api/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).errors[0].extensions.code).toBe("UNAUTHENTICATED");

    const foreign = await fetch(`${stack.dashboardUrl}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example", cookie: `herald_token=${stack.person.token}` },
      body,
    });
    expect(foreign.status).toBe(403);
  });

  it("ignores an Authorization header from the browser: the cookie's token is what Herald sees", async () => {
    const client = createHeraldClient({
      url: `${stack.dashboardUrl}/api/graphql`,
      token: stack.producerKey,
      fetch: withCookie(`herald_token=${stack.person.token}`),
    });
    expect((await client.viewer()).id).toBe(stack.person.id);
    client.close();
  });

  it("forgets a token Herald no longer accepts", async () => {
    const response = await fetch(`${stack.dashboardUrl}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: "herald_token=herald_pt_revoked" },
      body: JSON.stringify({ query: "{ viewer { id } }" }),
    });
    expect(response.status).toBe(401);
    expect(cookieOf(response)).toMatch(/herald_token=;/);
  });

  for (const singleConnection of [false, true]) {
    it(`streams live events through /api/graphql/stream (${singleConnection ? "single-connection" : "distinct-connections"} mode)`, async () => {
      const client = createHeraldClient({
        url: `${stack.dashboardUrl}/api/graphql`,
        singleConnection,
        fetch: withCookie(`herald_token=${stack.person.token}`),
      });
      const events: NotificationEvent[] = [];
      const errors: Error[] = [];
      const stop = client.events(null, { next: (e) => events.push(e), error: (e) => errors.push(e), complete: () => undefined });
      const key = `proxy-${singleConnection ? "single" : "distinct"}`;
      try {
        // The subscription is live once an event published after it arrives; retry until then.
        await eventually(
          async () => {
            const published = await stack.producer.publish({
              scope: "PERSON",
              personId: stack.person.id,
              key,
              title: `through the proxy`,
              source: { plugin: "e2e" },
            });
            expect(published.ok).toBe(true);
            // A second for this event to arrive, then publish again.
            return eventually(() => events.some((e) => e.notification.key === key), 1_000).then(
              () => true,
              () => false,
            );
          },
          10_000,
          "an event through the proxy",
          0,
        );
        expect(errors).toEqual([]);

        // The response is not buffered: a second event arrives on the same open stream.
        const before = events.length;
        await stack.producer.publish({ scope: "PERSON", personId: stack.person.id, key, title: "second revision", source: { plugin: "e2e" } });
        await eventually(() => events.slice(before).some((e) => e.notification.title === "second revision"), 5_000, "the second event on the open stream");
      } finally {
        stop();
        client.close();
      }
    });
  }

  it("answers an attachment no notification of the person names with 404, and without a sign-in with 401", async () => {
    const unknown = await fetch(`${stack.dashboardUrl}/api/assets/report-1`, { headers: { cookie: `herald_token=${stack.person.token}` } });
    expect(unknown.status).toBe(404);
    expect((await fetch(`${stack.dashboardUrl}/api/assets/report-1`)).status).toBe(401);
  });
});
