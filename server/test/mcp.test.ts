// `herald mcp` as an agent runs it: the MCP SDK's client spawns the real command over stdio,
// against a real `herald serve`; the person sees and answers through the person API.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type CreatedPerson, eventually, heraldBin, heraldCli, type SpawnedHerald, spawnHerald } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "./support/graphql.ts";
import { providers, type TestDatabase } from "./support/providers.ts";
import { sample } from "./support/prometheus.ts";
import { headCursor, subscribe } from "./support/sse.ts";

const LONG_CALL = { timeout: 300_000 };

interface Agent {
  client: Client;
  /** Everything the transport could not read as protocol (a stray line on stdout would land here). */
  errors: Error[];
  stderr: () => string;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

async function startAgent(env: Record<string, string>): Promise<Agent> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [heraldBin, "mcp"],
    env: { ...getDefaultEnvironment(), ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const errors: Error[] = [];
  const client = new Client({ name: "herald-test-agent", version: "1.0.0" });
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return {
    client,
    errors,
    stderr: () => stderr,
    call: (name, args) => client.callTool({ name, arguments: args }, undefined, LONG_CALL) as Promise<CallToolResult>,
    close: () => client.close(),
  };
}

const textOf = (result: CallToolResult) => (result.content[0] as { type: "text"; text: string }).text;
const jsonOf = <T = Record<string, any>>(result: CallToolResult): T => {
  expect(result.isError ?? false, textOf(result)).toBe(false);
  return JSON.parse(textOf(result)) as T;
};

const PERSON_VIEW = `query($id: ID!) { notification(id: $id) {
  id key title body severity status revision
  actions { kind id label url actionId form }
  operation { id state phase }
  resolution { actionId values }
  lastInvocation { state values }
} }`;

const METRICS_TOKEN = "mcp-test-scrape-token-0123";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`herald mcp on ${provider.name}`, () => {
    let db: TestDatabase;
    let served: SpawnedHerald;
    let person: CreatedPerson;
    let key: string;
    let agent: Agent;

    const view = async (id: string) => (await gql(served.url, person.token, PERSON_VIEW, { id })).data!.notification;
    const scrape = async () => (await fetch(`${served.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();

    beforeAll(async () => {
      db = await provider.createDatabase();
      const cli = heraldCli({ DATABASE_URL: db.url });
      person = await cli.createPerson("Ada");
      key = await cli.createProducerKey("agent", "mcp");
      served = await spawnHerald({ env: { DATABASE_URL: db.url, HERALD_METRICS_TOKEN: METRICS_TOKEN } });
      agent = await startAgent({ HERALD_URL: served.origin, HERALD_PRODUCER_KEY: key, HERALD_PERSON_ID: person.id });
    });
    afterAll(async () => {
      await agent?.close();
      await served?.stop();
      await db?.drop();
    });

    it("lists its four tools with their input schemas", async () => {
      const { tools } = await agent.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["ask", "await_answer", "notify", "progress"]);
      const schema = (name: string) =>
        tools.find((t) => t.name === name)!.inputSchema as { properties: Record<string, { maximum?: number }>; required?: string[] };
      expect(schema("notify").required).toEqual(["title"]);
      expect(schema("progress").required).toEqual(expect.arrayContaining(["key", "title"]));
      expect(schema("ask").required).toEqual(["question"]);
      expect(schema("ask").properties.timeoutSeconds!.maximum).toBe(3600);
      expect(schema("await_answer").required).toEqual(["handle"]);
      // Claude Code would otherwise defer them behind its tool search (usable only with ENABLE_TOOL_SEARCH=false).
      for (const tool of tools) expect(tool._meta?.["anthropic/alwaysLoad"], tool.name).toBe(true);
    });

    it("notify: the person sees it, a url becomes an Open follow-up, and a key revises it in place", async () => {
      const first = jsonOf(
        await agent.call("notify", { title: "Build finished", body: "All green", severity: "success", key: "build", url: "https://ci.example/run/1" }),
      );
      const seen = await view(first.id);
      expect(seen).toMatchObject({ title: "Build finished", body: "All green", severity: "SUCCESS", status: "PENDING", revision: 1 });
      expect(seen.actions).toEqual([expect.objectContaining({ kind: "OPEN_URL", url: "https://ci.example/run/1" })]);
      // A repeated notify with the key patches: body, severity and the link stay as they were.
      const second = jsonOf(await agent.call("notify", { title: "Build finished again", key: "build" }));
      expect(second.id).toBe(first.id);
      const patched = await view(first.id);
      expect(patched).toMatchObject({ title: "Build finished again", body: "All green", severity: "SUCCESS", revision: 2 });
      expect(patched.actions).toEqual([expect.objectContaining({ kind: "OPEN_URL", url: "https://ci.example/run/1" })]);
      const third = jsonOf(await agent.call("notify", { title: "Build broke", body: "1 failing", severity: "error", key: "build" }));
      expect(third.id).toBe(first.id);
      expect(await view(first.id)).toMatchObject({ title: "Build broke", body: "1 failing", severity: "ERROR", revision: 3 });
    });

    it("progress: updates one notification in place, then a finished state resolves it", async () => {
      const started = jsonOf(await agent.call("progress", { key: "deploy", title: "Deploying", phase: "uploading", percent: 40 }));
      expect(await view(started.id)).toMatchObject({
        body: "uploading · 40%",
        status: "PENDING",
        operation: { id: "deploy", state: "running", phase: "uploading" },
      });
      const later = jsonOf(await agent.call("progress", { key: "deploy", title: "Deploying", phase: "migrating", percent: 80 }));
      expect(later.id).toBe(started.id);
      expect(await view(started.id)).toMatchObject({ body: "migrating · 80%", revision: 2, operation: { phase: "migrating" } });
      const done = jsonOf(await agent.call("progress", { key: "deploy", title: "Deployed", state: "succeeded" }));
      expect(done.id).toBe(started.id);
      expect(await view(started.id)).toMatchObject({ title: "Deployed", severity: "SUCCESS", status: "RESOLVED", operation: { state: "succeeded" } });
    });

    it("ask: the person answers a choice while the call waits; the answer is acknowledged and resolves the question", async () => {
      const stream = subscribe(served.url, person.token, { after: await headCursor(served.url, person.token) });
      try {
        const question = "Ship the release now?";
        const pending = agent.call("ask", { question, choices: ["Yes", "Not yet"], timeoutSeconds: 600 });
        const events = await stream.waitUntil((received) => received.some((e) => e.notification.title === question), 120_000);
        const id = events.find((e) => e.notification.title === question)!.notification.id;
        expect((await view(id)).actions.map((a: { id: string; label: string }) => [a.id, a.label])).toEqual([
          ["choice-1", "Yes"],
          ["choice-2", "Not yet"],
        ]);
        const invoked = await gql(served.url, person.token, `mutation($id: ID!) { invokeNotificationAction(id: $id, actionId: "choice-2") { state } }`, { id });
        expect(invoked.data?.invokeNotificationAction.state).toBe("PENDING");
        expect(jsonOf(await pending)).toEqual({ status: "answered", handle: id, choice: { index: 1, label: "Not yet" } });
        expect(await view(id)).toMatchObject({ status: "RESOLVED", resolution: { actionId: "choice-2" }, lastInvocation: { state: "ACKNOWLEDGED" } });
      } finally {
        stream.dispose();
        // The server lets go of the stream a moment after the client does; until then the next
        // test's question would reach it and show as DELIVERED instead of PENDING.
        await eventually(async () => sample(await scrape(), "herald_open_streams") === 0, 15_000, "the stream to close on the server");
      }
    });

    it("ask with a form: after a timeout the question stays open, and await_answer gets the answer given while nobody waited", async () => {
      const asked = jsonOf(
        await agent.call("ask", { question: "Which branch?", fields: [{ name: "branch", label: "Branch", type: "text", required: true }], timeoutSeconds: 1 }),
      );
      expect(asked).toMatchObject({ status: "pending" });
      const handle = asked.handle as string;
      expect(await view(handle)).toMatchObject({
        status: "PENDING",
        actions: [expect.objectContaining({ kind: "RUN_ACTION", form: [expect.objectContaining({ name: "branch", type: "TEXT" })] })],
      });
      const invoked = await gql(
        served.url,
        person.token,
        `mutation($id: ID!) { invokeNotificationAction(id: $id, actionId: "answer", values: { branch: "release/2.0" }) { state } }`,
        { id: handle },
      );
      expect(invoked.data?.invokeNotificationAction.state).toBe("PENDING");
      expect(jsonOf(await agent.call("await_answer", { handle, timeoutSeconds: 600 }))).toEqual({
        status: "answered",
        handle,
        values: { branch: "release/2.0" },
      });
      expect(await view(handle)).toMatchObject({
        status: "RESOLVED",
        resolution: { actionId: "answer", values: { branch: "release/2.0" } },
        lastInvocation: { state: "ACKNOWLEDGED" },
      });
      // Asked again later from a new process (the agent restarted): the answer is found at once, not waited for.
      const restarted = await startAgent({ HERALD_URL: served.origin, HERALD_PRODUCER_KEY: key, HERALD_PERSON_ID: person.id });
      try {
        expect(jsonOf(await restarted.call("await_answer", { handle, timeoutSeconds: 3_600 }))).toEqual({
          status: "answered",
          handle,
          values: { branch: "release/2.0" },
        });
      } finally {
        await restarted.close();
      }
    });

    it("await_answer from a new process finds a choice answered and acknowledged long before", async () => {
      const asked = jsonOf(await agent.call("ask", { question: "Merge it?", choices: ["Merge", "Wait"], timeoutSeconds: 0 }));
      const handle = asked.handle as string;
      await gql(served.url, person.token, `mutation($id: ID!) { invokeNotificationAction(id: $id, actionId: "choice-1") { state } }`, { id: handle });
      expect(jsonOf(await agent.call("await_answer", { handle, timeoutSeconds: 600 }))).toEqual({
        status: "answered",
        handle,
        choice: { index: 0, label: "Merge" },
      });
      const restarted = await startAgent({ HERALD_URL: served.origin, HERALD_PRODUCER_KEY: key, HERALD_PERSON_ID: person.id });
      try {
        expect(jsonOf(await restarted.call("await_answer", { handle, timeoutSeconds: 3_600 }))).toEqual({
          status: "answered",
          handle,
          choice: { index: 0, label: "Merge" },
        });
      } finally {
        await restarted.close();
      }
    });

    it("refuses bad input as tool errors that name the field, and keeps serving", async () => {
      const both = await agent.call("ask", { question: "?", choices: ["a"], fields: [{ name: "x", label: "X", type: "text" }] });
      expect([both.isError, textOf(both)]).toEqual([true, expect.stringContaining("choices")]);
      const badUrl = await agent.call("notify", { title: "Look", url: "javascript:alert(1)" });
      expect([badUrl.isError, textOf(badUrl)]).toEqual([true, expect.stringMatching(/actions\.0\.url/)]);
      const tooLong = await agent.call("await_answer", { handle: "n1", timeoutSeconds: 3601 });
      expect([tooLong.isError, textOf(tooLong)]).toEqual([true, expect.stringContaining("timeoutSeconds")]);
      const badField = await agent.call("ask", { question: "Pick", fields: [{ name: "color", label: "Color", type: "select" }], timeoutSeconds: 0 });
      expect([badField.isError, textOf(badField)]).toEqual([true, expect.stringMatching(/form\.0\.options/)]);
      expect(jsonOf(await agent.call("notify", { title: "Still here" }))).toMatchObject({ status: "PENDING" });
      expect(agent.errors).toEqual([]);
    });

    it("says which setting is missing, and which credential Herald refused, without ending the session", async () => {
      const unconfigured = await startAgent({ HERALD_URL: served.origin, HERALD_PRODUCER_KEY: key });
      try {
        const result = await unconfigured.call("notify", { title: "Hello" });
        expect([result.isError, textOf(result)]).toEqual([true, expect.stringContaining("HERALD_PERSON_ID")]);
        expect((await unconfigured.client.listTools()).tools).toHaveLength(4);
      } finally {
        await unconfigured.close();
      }
      const refused = await startAgent({ HERALD_URL: served.origin, HERALD_PRODUCER_KEY: "herald_pk_not-a-real-key", HERALD_PERSON_ID: person.id });
      try {
        const result = await refused.call("await_answer", { handle: "n1", timeoutSeconds: 5 });
        expect([result.isError, textOf(result)]).toEqual([true, expect.stringContaining("UNAUTHENTICATED")]);
        expect(refused.stderr()).not.toContain("herald_pk_not-a-real-key");
      } finally {
        await refused.close();
      }
    });
  });
}
