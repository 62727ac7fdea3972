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

  it("redeems a one-time sign-in link once, then explains that it is used up", async () => {
    const code = stack.person.signInCode;
    expect(code).not.toBe("");
    const first = await fetch(`${stack.dashboardUrl}/signin/${code}`, { redirect: "manual" });
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/");
    expect(first.headers.get("referrer-policy")).toBe("no-referrer");
    const cookie = cookieOf(first);
    expect(cookie).toMatch(/HttpOnly/i);
    const token = /herald_token=([^;]+)/.exec(cookie)?.[1] ?? "";
    const viewer = await createHeraldClient({ url: stack.heraldUrl, token }).viewer();
    expect(viewer.id).toBe(stack.person.id);

    const again = await fetch(`${stack.dashboardUrl}/signin/${code}`, { redirect: "manual" });
    expect(again.status).toBe(200);
    expect(cookieOf(again)).toBe("");
    expect(await again.text()).toContain("not valid any more");
  });

  it("signs out by clearing the cookie", async () => {
    const response = await fetch(`${stack.dashboardUrl}/signout`, {
      method: "POST",
      redirect: "manual",
      headers: {
        accept: "text/html",
        origin: stack.dashboardUrl,
        "content-type": "application/x-www-form-urlencoded",
        cookie: `herald_token=${stack.person.token}`,
      },
      body: "",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/signin");
    expect(cookieOf(response)).toMatch(/herald_token=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i);
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
    const client = createHeraldClient({ url: `${stack.dashboardUrl}/api/graphql`, token: stack.producerKey, fetch: withCookie(`herald_token=${stack.person.token}`) });
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
            const published = await stack.producer.publish({ scope: "PERSON", personId: stack.person.id, key, title: `through the proxy`, source: { plugin: "e2e" } });
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

  it("serves the attachment placeholder route", async () => {
    const response = await fetch(`${stack.dashboardUrl}/api/assets/report-1`, { headers: { cookie: `herald_token=${stack.person.token}` } });
    expect(response.status).toBe(501);
    expect(await response.text()).toContain("report-1");
  });
});
