// The pieces every adapter relies on, without a harness: which opencode messages make the
// exchange, and the shared reporter's promise never to fail or slow the agent (an unreachable or
// silent server, a refusal), saying each kind of trouble once on stderr and nothing on stdout.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { lastExchange, type MessageWithParts } from "../opencode/last-exchange.ts";
import { bounded, OnceWarner, reportExchange, reporterConfig } from "../shared/report-exchange.ts";

const user = (id: string, text: string): MessageWithParts => ({ info: { id, role: "user" }, parts: [{ type: "text", text }] });
const assistant = (id: string, parentID: string, text: string, info: Partial<MessageWithParts["info"]> = {}): MessageWithParts => ({
  info: { id, role: "assistant", parentID, time: { created: 1, completed: 2 }, path: { cwd: "/home/ada/billing" }, ...info },
  parts: [
    { type: "reasoning", text: "thinking" },
    { type: "text", text },
    { type: "text", text: "(added by opencode)", synthetic: true },
  ],
});

describe("the opencode exchange", () => {
  it("is the last finished answer with the prompt it answers", () => {
    const messages = [
      user("msg_1", "Fix the rounding"),
      assistant("msg_2", "msg_1", "Rounded."),
      user("msg_3", "And the tax?"),
      assistant("msg_4", "msg_3", "Taxed."),
    ];
    expect(lastExchange(messages)).toEqual({ completionId: "msg_4", cwd: "/home/ada/billing", userText: "And the tax?", assistantText: "Taxed." });
  });

  it("is none when the last answer failed, is unfinished or a summary, or a prompt is unanswered", () => {
    const prompt = user("msg_1", "Fix it");
    expect(lastExchange([prompt, assistant("msg_2", "msg_1", "", { error: { name: "MessageAbortedError" } })])).toBeNull();
    expect(lastExchange([prompt, assistant("msg_2", "msg_1", "Fi", { time: { created: 1 } })])).toBeNull();
    expect(lastExchange([prompt, assistant("msg_2", "msg_1", "Summary", { summary: true })])).toBeNull();
    expect(lastExchange([prompt, assistant("msg_2", "msg_1", "Done."), user("msg_3", "Next?")])).toBeNull();
    expect(lastExchange([])).toBeNull();
  });
});

describe("the shared reporter", () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      server.close();
    }
  });
  const serve = async (handler: Parameters<typeof createServer>[1]) => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const report = { harness: "pi" as const, sessionId: "s-1", completionId: "e1", cwd: "/tmp/p", userText: "u", assistantText: "a" };

  it("sends the agent's text without NUL, control characters or bidi overrides, keeping the rest", async () => {
    let sent: { input: { userText: string; assistantText: string } } | undefined;
    const url = await serve((request, response) => {
      const parts: Buffer[] = [];
      request.on("data", (part: Buffer) => parts.push(part));
      request.on("end", () => {
        sent = JSON.parse(Buffer.concat(parts).toString("utf8"));
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ duplicate: false, session: { label: null } }));
      });
    });
    const config = { endpoint: `${url}/api/v1/report-exchange`, key: "k", timeoutMs: 5_000 };
    const outcome = await reportExchange(
      { ...report, userText: "fix\u0000 the \u001b[31mbug\u009b\tnow\n", assistantText: "done \u202Etxt.exe\u202C \u2067ok\u2069 \u05D0\u200F" },
      config,
      new OnceWarner("t", () => undefined),
    );
    expect(outcome).toMatchObject({ kind: "reported" });
    expect(sent!.input.userText).toBe("fix the [31mbug\tnow\n");
    expect(sent!.input.assistantText).toBe("done txt.exe ok \u05D0\u200F");
  });

  it("takes its settings from HERALD_URL, HERALD_PRODUCER_KEY and HERALD_PERSON_ID", () => {
    expect(reporterConfig({})).toBeNull();
    expect(reporterConfig({ HERALD_PRODUCER_KEY: "k", HERALD_URL: "http://h:1/graphql", HERALD_PERSON_ID: "p" })).toMatchObject({
      endpoint: "http://h:1/api/v1/report-exchange",
      key: "k",
      personId: "p",
    });
    expect(reporterConfig({ HERALD_PRODUCER_KEY: "k" })?.endpoint).toBe("http://127.0.0.1:4000/api/v1/report-exchange");
  });

  it("sends the harness's ids as they are, the owner and bounded texts", async () => {
    let body: any;
    const url = await serve((req, res) => {
      let text = "";
      req.on("data", (c) => (text += c));
      req.on("end", () => {
        body = { auth: req.headers.authorization, path: req.url, ...JSON.parse(text) };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ __typename: "ReportedExchange", duplicate: false, session: { label: "Fix Login Redirect" } }));
      });
    });
    const outcome = await reportExchange(
      { ...report, assistantText: "x".repeat(20_000) },
      reporterConfig({ HERALD_URL: url, HERALD_PRODUCER_KEY: "herald_pk_test", HERALD_PERSON_ID: "p-1" }),
      new OnceWarner("t", () => undefined),
    );
    expect(outcome).toEqual({ kind: "reported", duplicate: false, label: "Fix Login Redirect" });
    expect(body).toMatchObject({
      auth: "Bearer herald_pk_test",
      path: "/api/v1/report-exchange",
      input: { harness: "pi", sessionId: "s-1", completionId: "e1", personId: "p-1" },
    });
    expect(body.input.assistantText).toHaveLength(8_000);
  });

  it("leaves out a missing completion id, so the server notifies without counting", async () => {
    let input: any;
    const url = await serve((req, res) => {
      let text = "";
      req.on("data", (c) => (text += c));
      req.on("end", () => {
        input = JSON.parse(text).input;
        res.end(JSON.stringify({ duplicate: false, session: { label: null } }));
      });
    });
    await reportExchange(
      { ...report, completionId: undefined },
      reporterConfig({ HERALD_URL: url, HERALD_PRODUCER_KEY: "k" }),
      new OnceWarner("t", () => undefined),
    );
    expect(input).not.toHaveProperty("completionId");
  });

  it("gives up on a silent server within its bound and says so once", async () => {
    const url = await serve(() => undefined); // never answers
    const lines: string[] = [];
    const warner = new OnceWarner("herald", (line) => lines.push(line));
    const config = { ...reporterConfig({ HERALD_URL: url, HERALD_PRODUCER_KEY: "k" })!, timeoutMs: 200 };
    const first = await reportExchange(report, config, warner);
    const second = await reportExchange(report, config, warner);
    expect(first).toEqual({ kind: "failed", reason: "no answer within 200 ms" });
    expect(second.kind).toBe("failed");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^herald: Herald at http:\/\/127\.0\.0\.1:\d+ did not take the exchange report \(no answer within 200 ms\)\n$/);
  });

  it("says a refusal with the field it names, never the key, and again after a success", async () => {
    let refuse = true;
    const url = await serve((_req, res) => {
      if (refuse) {
        res.writeHead(422, { "content-type": "application/json" });
        res.end(JSON.stringify({ __typename: "ValidationError", field: "sessionId", message: "sessionId: no such session" }));
      } else res.end(JSON.stringify({ duplicate: true, session: { label: "" } }));
    });
    const lines: string[] = [];
    const warner = new OnceWarner("herald", (line) => lines.push(line));
    const config = reporterConfig({ HERALD_URL: url, HERALD_PRODUCER_KEY: "herald_pk_secret" });
    expect(await reportExchange(report, config, warner)).toEqual({ kind: "failed", reason: "HTTP 422, invalid sessionId: sessionId: no such session" });
    await reportExchange(report, config, warner);
    expect(lines).toHaveLength(1);
    refuse = false;
    expect(await reportExchange(report, config, warner)).toEqual({ kind: "reported", duplicate: true, label: null });
    refuse = true;
    await reportExchange(report, config, warner);
    expect(lines).toHaveLength(2);
    expect(lines.join("")).not.toContain("herald_pk_secret");
  });

  it("without a key reports nothing and says why once", async () => {
    const lines: string[] = [];
    const warner = new OnceWarner("herald", (line) => lines.push(line));
    expect(await reportExchange(report, null, warner)).toEqual({ kind: "skipped", reason: "not configured" });
    await reportExchange(report, null, warner);
    expect(lines).toEqual(["herald: HERALD_PRODUCER_KEY is not set; exchanges are not reported\n"]);
  });

  it("bounds text without splitting a surrogate pair", () => {
    expect(bounded("ab😀", 3)).toBe("ab");
    expect(bounded("abc", 3)).toBe("abc");
  });
});
