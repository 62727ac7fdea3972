// `herald hook claude-code|codex`: what each harness payload means, the bounded transcript read,
// and the real hook process against a real `herald serve` on both stores (counting, retries,
// sub-agents, the attention notification and its clearing, failures that never fail the agent).
import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, chmodSync, closeSync, existsSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { createTempDir, eventually, type TempDir } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeHookAction } from "../../src/cli/hook/claude-code.ts";
import { readTurn } from "../../src/cli/hook/claude-transcript.ts";
import { readTurnOnceWritten } from "../../src/cli/hook/claude-transcript-catch-up.ts";
import { codexHookAction } from "../../src/cli/hook/codex.ts";
import { bounded } from "../../src/cli/hook/report.ts";
import { describeToolCall, permissionDecision } from "../../src/cli/hook/approval.ts";
import { gql } from "../support/graphql.ts";
import { heraldBin, heraldCommand, heraldRaw, serve, type Served, stop } from "../support/processes.ts";
import { providers, type TestDatabase } from "../support/providers.ts";

const dir: TempDir = createTempDir("herald-hook-");
afterAll(() => dir.remove());

// Transcript entries as Claude Code 2.1 writes them (compact JSON, one per line).
const user = (uuid: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  parentUuid: null,
  isSidechain: false,
  type: "user",
  message: { role: "user", content },
  uuid,
  ...extra,
});
const assistant = (uuid: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  parentUuid: null,
  isSidechain: false,
  type: "assistant",
  message: { id: "msg_1", role: "assistant", content },
  uuid,
  ...extra,
});
const attachment = (size: number) => ({ type: "attachment", attachment: { type: "prompt_snapshot", text: "x".repeat(size) }, uuid: "att" });
let files = 0;
function transcript(entries: unknown[], trailingNewline = true): string {
  const path = join(dir.path, `t${++files}.jsonl`);
  writeFileSync(path, entries.map((e) => JSON.stringify(e)).join("\n") + (trailingNewline ? "\n" : ""));
  return path;
}

describe("a Claude Code hook payload", () => {
  const base = { session_id: "s1", transcript_path: "/t.jsonl", cwd: "/home/ada/src/app" };
  it("Stop reports; SubagentStop, any sub-agent event, SessionEnd and informational notifications do not", () => {
    expect(claudeHookAction({ ...base, hook_event_name: "Stop", last_assistant_message: "Done." })).toEqual({
      kind: "exchange",
      sessionId: "s1",
      cwd: base.cwd,
      transcriptPath: "/t.jsonl",
      promptId: null,
      lastAssistantMessage: "Done.",
    });
    expect(claudeHookAction({ ...base, hook_event_name: "SubagentStop", agent_id: "a1", agent_transcript_path: "/a.jsonl" }).kind).toBe("ignore");
    expect(claudeHookAction({ ...base, hook_event_name: "Notification", agent_id: "a1", notification_type: "permission_prompt", message: "m" }).kind).toBe(
      "ignore",
    );
    expect(claudeHookAction({ ...base, hook_event_name: "SessionEnd", reason: "other" }).kind).toBe("ignore");
    expect(
      claudeHookAction({ ...base, hook_event_name: "Notification", notification_type: "idle_prompt", message: "Claude is waiting for your input" }).kind,
    ).toBe("ignore");
    expect(claudeHookAction({ ...base, hook_event_name: "Notification", notification_type: "auth_success", message: "ok" }).kind).toBe("ignore");
  });

  it("a notification that waits on the person becomes the session's attention notification", () => {
    expect(
      claudeHookAction({
        ...base,
        hook_event_name: "Notification",
        notification_type: "permission_prompt",
        message: "Claude needs your permission to use Bash",
      }),
    ).toEqual({
      kind: "attention",
      sessionId: "s1",
      cwd: base.cwd,
      waits: "needs your permission",
      body: "Claude needs your permission to use Bash",
    });
  });

  it("a permission request asks the person; the answer is Claude Code's decision", () => {
    expect(claudeHookAction({ ...base, hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: "rm -rf build" } })).toEqual({
      kind: "approval",
      sessionId: "s1",
      cwd: base.cwd,
      toolName: "Bash",
      toolInput: { command: "rm -rf build" },
    });
    expect(claudeHookAction({ ...base, hook_event_name: "PermissionRequest", agent_id: "a1", tool_name: "Bash" }).kind).toBe("ignore");
    expect(describeToolCall("Bash", { command: "rm -rf build", description: "clean" })).toBe("Bash: rm -rf build");
    expect(describeToolCall("Write", { file_path: "/w/a.ts", content: "x" })).toBe("Write: /w/a.ts");
    expect(describeToolCall("mcp__x__y", { a: 1 })).toBe('mcp__x__y: {"a":1}');
    expect(permissionDecision(0)).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } });
    expect(permissionDecision(1)).toMatchObject({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny" } } });
  });

  it("a payload that is not Claude Code's is refused naming what is missing", () => {
    expect(() => claudeHookAction([])).toThrow("not a JSON object");
    expect(() => claudeHookAction({ session_id: "s" })).toThrow("no hook_event_name");
    expect(() => claudeHookAction({ hook_event_name: "Stop", cwd: "/x" })).toThrow("no session_id");
  });
});

describe("a Codex notify payload", () => {
  it("agent-turn-complete reports the thread's turn; other types do not", () => {
    const payload = {
      type: "agent-turn-complete",
      "thread-id": "th-1",
      "turn-id": "tu-9",
      cwd: "/w/app",
      client: "codex-tui",
      "input-messages": ["fix it", "and test it"],
      "last-assistant-message": "Fixed.",
    };
    expect(codexHookAction(payload, "/elsewhere")).toEqual({
      kind: "exchange",
      exchange: { harness: "codex", sessionId: "th-1", completionId: "tu-9", cwd: "/w/app", userText: "and test it", assistantText: "Fixed." },
    });
    expect(codexHookAction({ ...payload, "turn-id": undefined, cwd: undefined, "last-assistant-message": null }, "/elsewhere")).toMatchObject({
      exchange: { completionId: null, cwd: "/elsewhere", assistantText: "" },
    });
    // Codex passes every user message of the thread so far: the turn's own is the last one.
    const nine = Array.from({ length: 9 }, (_, i) => `request ${i + 1}`);
    expect(codexHookAction({ ...payload, "input-messages": nine }, "/")).toMatchObject({ exchange: { userText: "request 9" } });
    expect(codexHookAction({ ...payload, "input-messages": [] }, "/")).toMatchObject({ exchange: { userText: "" } });
    expect(codexHookAction({ type: "approval-requested" }, "/")).toEqual({ kind: "ignore", reason: "approval-requested is not reported" });
    expect(() => codexHookAction({ type: "agent-turn-complete" }, "/")).toThrow("no thread-id");
  });
});

describe("what a hook sends of the agent's text", () => {
  it("drops NUL, controls and bidi overrides (Herald would refuse or misshow them) and keeps the rest, bounded", () => {
    expect(bounded("  fix\u0000 it\u001b[1m\u202E now\u202C  ")).toBe("fix it[1m now");
    expect(bounded("a\u0000".repeat(5), 3)).toBe("aaa");
  });
});

describe("the end of a Claude Code transcript", () => {
  it("is the last prompt and the main thread's last answer after it, skipping tool results, sub-agents and other entries", async () => {
    const path = transcript([
      user("u0", "an older prompt"),
      assistant("a0", [{ type: "text", text: "older answer" }]),
      user("u1", "please fix the login redirect"),
      assistant("a1", [
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: "t1", name: "Read", input: {} },
      ]),
      user("u2", [{ type: "tool_result", tool_use_id: "t1", content: "file text" }]),
      assistant("a-side", [{ type: "text", text: "sub-agent answer" }], { isSidechain: true }),
      user("u-side", "a sub-agent's prompt", { isSidechain: true }),
      assistant("a2", [{ type: "text", text: "I fixed the redirect." }]),
      assistant("a3", [{ type: "thinking", thinking: "done" }]),
      attachment(300_000),
      { type: "system", subtype: "stop_hook_summary", uuid: "sys" },
    ]);
    expect(await readTurn(path)).toEqual({
      completionId: "a3",
      userText: "please fix the login redirect",
      assistantText: "I fixed the redirect.",
      internal: false,
    });
  });

  it("marks a turn Claude Code started itself (a background task's notification) as internal", async () => {
    const path = transcript([
      user("u1", "fix it", { promptSource: "sdk" }),
      assistant("a1", "Started a helper."),
      user("u2", "<task-notification>\n<status>completed</status>\n</task-notification>", {
        promptSource: "system",
        turnOrigin: "task_notification",
        origin: { kind: "task-notification" },
      }),
      assistant("a2", "The helper is done."),
    ]);
    expect(await readTurn(path)).toMatchObject({ completionId: "a2", assistantText: "The helper is done.", internal: true });
    expect((await readTurn(transcript([user("u1", "typed", { promptSource: "user" }), assistant("a1", "ok")]))).internal).toBe(false);
  });

  it("with a prompt id, is that prompt's turn even after later turns; a prompt id not within the bound gives no completion id", async () => {
    const path = transcript([
      user("u1", "first", { promptId: "p1" }),
      assistant("a1", "First answer.", { promptId: "p1" }),
      user("u2", "second", { promptId: "p2" }),
      assistant("a2", "Second answer."),
    ]);
    expect(await readTurn(path, { promptId: "p1" })).toEqual({ completionId: "a1", userText: "first", assistantText: "First answer.", internal: false });
    expect(await readTurn(path, { promptId: "p2" })).toMatchObject({ completionId: "a2", userText: "second" });
    expect(await readTurn(path, { promptId: "p0" })).toEqual({ completionId: null, userText: "", assistantText: "", internal: false });
  });

  it("reads a file without a final newline, and one whose only prompt is its first line", async () => {
    expect(await readTurn(transcript([user("u1", [{ type: "text", text: "hi there" }]), assistant("a1", "Hello.")], false))).toEqual({
      completionId: "a1",
      userText: "hi there",
      assistantText: "Hello.",
      internal: false,
    });
  });

  it("has no completion id when no answer follows the last prompt (the transcript lags behind)", async () => {
    expect(await readTurn(transcript([user("u0", "old"), assistant("a0", "old answer"), user("u1", "new prompt")]))).toEqual({
      completionId: null,
      userText: "new prompt",
      assistantText: "",
      internal: false,
    });
  });

  it("reads at most the bound from the end: a prompt before it is not found", async () => {
    const path = transcript([user("u1", "far back"), attachment(200_000), assistant("a1", "answer")]);
    expect(await readTurn(path, { limitBytes: 100_000 })).toEqual({ completionId: "a1", userText: "", assistantText: "answer", internal: false });
    expect((await readTurn(path)).userText).toBe("far back");
  });
});

describe("a Claude Code transcript that lags behind its Stop hook", () => {
  const lagging = () =>
    transcript([user("u1", "please fix the login redirect", { promptId: "p1" }), assistant("a1", [{ type: "tool_use", id: "t1", name: "Agent", input: {} }])]);
  const answer = (path: string) =>
    appendFileSync(
      path,
      `${JSON.stringify(user("u2", [{ type: "tool_result", tool_use_id: "t1", content: "found" }]))}\n${JSON.stringify(assistant("a2", "I fixed the redirect."))}\n`,
    );

  it("is read again when the answer is appended, and then names the answer's entry", async () => {
    const path = lagging();
    // Long enough that only the appended answer, not the time limit, can end the wait with a2.
    const reading = readTurnOnceWritten(path, { promptId: "p1", answer: "I fixed the redirect.", waitMs: 60_000 });
    answer(path);
    expect(await reading).toEqual({ completionId: "a2", userText: "please fix the login redirect", assistantText: "I fixed the redirect.", internal: false });
  });

  it("is the file as it was when the answer never comes within the wait", async () => {
    const path = lagging();
    appendFileSync(path, `${JSON.stringify({ type: "system", subtype: "stop_hook_summary", uuid: "sys" })}\n`);
    expect(await readTurnOnceWritten(path, { promptId: "p1", answer: "I fixed the redirect.", waitMs: 200 })).toEqual({
      completionId: "a1",
      userText: "please fix the login redirect",
      assistantText: "",
      internal: false,
    });
  });

  it("is read at once when it already shows the answer, and another file's changes do not end the wait", async () => {
    const path = lagging();
    answer(path);
    expect((await readTurnOnceWritten(path, { promptId: "p1", answer: "I fixed the redirect.", waitMs: 60_000 })).completionId).toBe("a2");
    const other = lagging();
    const reading = readTurnOnceWritten(other, { promptId: "p1", answer: "I fixed the redirect.", waitMs: 60_000 });
    answer(transcript([user("u9", "another session")]));
    appendFileSync(other, `${JSON.stringify(attachment(10))}\n`);
    answer(other);
    expect((await reading).completionId).toBe("a2");
  });
});

const SESSION = `query($h: String!, $s: String!) { session(harness: $h, sessionId: $s) { id label sourceGeneration completionId } }`;
const INBOX = `{ notifications(first: 20) { edges { node { id key revision status severity title body source { plugin subsystem } } } } }`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`the hook process against herald serve on ${provider.name}`, () => {
    let db: TestDatabase;
    let served: Served;
    let person: { id: string; token: string };
    let env: Record<string, string>;
    /** As the README sets the hooks up: each harness's key bound to its plugin, no admin key. */
    const keys: Record<string, string> = {};

    // Four herald processes start here (keys, person, serve): minutes on a busy two-core machine.
    beforeAll(async () => {
      db = await provider.createDatabase();
      for (const harness of ["claude-code", "codex"])
        keys[harness] = (await heraldCommand(["key", "create", "--name", harness, "--plugin", harness], { DATABASE_URL: db.url })).lastLine;
      const key = keys["claude-code"]!;
      const created = await heraldCommand(["person", "create", "--name", "Ada"], { DATABASE_URL: db.url });
      person = { id: created.lines[0]!.replace("person ", ""), token: created.lastLine };
      served = await serve({ DATABASE_URL: db.url, NODE_ENV: "production" });
      // The 2 s default is for an agent's machine; this one runs other suites at the same time.
      env = { HERALD_URL: served.origin, HERALD_PRODUCER_KEY: key, HERALD_PERSON_ID: person.id, HERALD_HOOK_TIMEOUT_MS: "10000" };
    }, 300_000);
    afterAll(async () => {
      if (served) await stop(served);
      await db?.drop();
    });

    const hook = async (harness: string, payload: unknown, extraEnv: Record<string, string> = {}) => {
      const hookEnv = { ...env, HERALD_PRODUCER_KEY: keys[harness]!, ...extraEnv };
      const r =
        harness === "codex"
          ? await heraldRaw(["hook", "codex", JSON.stringify(payload)], hookEnv, "")
          : await heraldRaw(["hook", harness], hookEnv, JSON.stringify(payload));
      return { code: r.code, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
    };
    const inbox = async () => (await gql(served.url, person.token, INBOX)).data.notifications.edges.map((e: any) => e.node);
    // Each harness's own bound key: a key bound to another harness sees its sessions as absent.
    const session = async (harness: string, id: string) => (await gql(served.url, keys[harness]!, SESSION, { h: harness, s: id })).data.session;

    it("Claude Code: Stop counts once, a retried Stop and a SubagentStop count nothing, and attention is raised, revised and cleared", async () => {
      const sessionId = `cc-${provider.name}-1`;
      const path = transcript([
        user("u1", "please fix the login redirect", { promptId: "p1" }),
        assistant("a1", [{ type: "text", text: "I fixed the redirect." }]),
      ]);
      const stopPayload = {
        session_id: sessionId,
        transcript_path: path,
        cwd: "/home/ada/src/shop",
        prompt_id: "p1",
        hook_event_name: "Stop",
        stop_hook_active: false,
        last_assistant_message: "I fixed the redirect.",
      };

      expect(await hook("claude-code", stopPayload)).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(await session("claude-code", sessionId)).toMatchObject({ sourceGeneration: "1", completionId: "a1" });
      // Published at once, then retitled in place when the (built-in) labeler names the session.
      await eventually(async () => (await inbox())[0]?.revision === 2, 15_000, "the completion retitled with the label");
      const [completion] = await inbox();
      expect(completion).toMatchObject({
        key: "exchange",
        revision: 2,
        body: "I fixed the redirect.",
        source: { plugin: "claude-code", subsystem: "exchange" },
      });

      // The same Stop delivered again, and a sub-agent finishing: nothing changes.
      expect(await hook("claude-code", stopPayload)).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(
        await hook("claude-code", { ...stopPayload, hook_event_name: "SubagentStop", agent_id: "ag1", agent_type: "Explore", agent_transcript_path: path }),
      ).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(await session("claude-code", sessionId)).toMatchObject({ sourceGeneration: "1", completionId: "a1" });
      expect(await inbox()).toEqual([completion]);

      // Claude waits for a permission: one WARNING for the session, revised in place.
      const ask = {
        session_id: sessionId,
        transcript_path: path,
        cwd: "/home/ada/src/shop",
        hook_event_name: "Notification",
        notification_type: "permission_prompt",
      };
      expect(await hook("claude-code", { ...ask, message: "Claude needs your permission to use Bash" })).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(await hook("claude-code", { ...ask, message: "Claude needs your permission to use Write" })).toEqual({ code: 0, stdout: "", stderr: "" });
      const attention = (await inbox()).find((n: any) => n.key === "attention");
      // Named by the session's label, as the completion is.
      const { label } = await session("claude-code", sessionId);
      expect(label).not.toBe("");
      expect(attention).toMatchObject({
        revision: 2,
        status: expect.not.stringMatching(/EXPIRED|RESOLVED/),
        severity: "WARNING",
        title: `${label} · claude-code needs your permission`,
        body: "Claude needs your permission to use Write",
        source: { plugin: "claude-code", subsystem: "attention" },
      });

      // The next turn ends: it counts, and the attention is over.
      appendFileSync(path, `${JSON.stringify(user("u2", "now the tests", { promptId: "p2" }))}\n${JSON.stringify(assistant("a2", "Tests pass."))}\n`);
      expect(await hook("claude-code", { ...stopPayload, prompt_id: "p2", last_assistant_message: "Tests pass." })).toEqual({
        code: 0,
        stdout: "",
        stderr: "",
      });
      expect(await session("claude-code", sessionId)).toMatchObject({ sourceGeneration: "2", completionId: "a2" });
      // The first Stop delivered once more, after the later turn: still its own turn, a retry.
      const latest = (await inbox()).find((n: any) => n.key === "exchange");
      expect(await hook("claude-code", stopPayload)).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(await session("claude-code", sessionId)).toMatchObject({ sourceGeneration: "2", completionId: "a2" });
      expect((await inbox()).find((n: any) => n.key === "exchange")).toEqual(latest);
      const after = await gql(served.url, person.token, `query($id: ID!) { notification(id: $id) { status } }`, { id: attention.id });
      expect(after.data.notification).toEqual({ status: "EXPIRED" });
    });

    it("Claude Code: attention before the session's first exchange creates the session with the bound key, named by its project", async () => {
      const sessionId = `cc-${provider.name}-first-ask`;
      const ask = {
        session_id: sessionId,
        transcript_path: "/none.jsonl",
        cwd: "/home/ada/src/billing",
        hook_event_name: "Notification",
        notification_type: "permission_prompt",
        message: "Claude needs your permission to use Bash",
      };
      expect(await hook("claude-code", ask)).toEqual({ code: 0, stdout: "", stderr: "" });
      const { id } = await session("claude-code", sessionId);
      const attention = (await inbox()).find((n: any) => n.key === "attention" && n.body === ask.message && n.title.startsWith("billing"));
      expect(attention).toMatchObject({ title: "billing · claude-code needs your permission", severity: "WARNING" });
      expect(id).toBeTruthy();
      // A key bound to another harness still cannot create this harness's sessions.
      const foreign = await gql(
        served.url,
        keys.codex!,
        `mutation($p: ID!) { createSession(input: { harness: "claude-code", sessionId: "not-codex", ownerPersonId: $p }) { id } }`,
        { p: person.id },
      );
      expect(foreign.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    });

    it("Claude Code: a permission request is a question answered Allow, Deny, or not at all (then the hook prints nothing)", async () => {
      const sessionId = `cc-${provider.name}-approvals`;
      const request = {
        session_id: sessionId,
        transcript_path: "/none.jsonl",
        cwd: "/home/ada/src/infra",
        hook_event_name: "PermissionRequest",
        tool_name: "Bash",
        tool_input: { command: "terraform apply" },
      };
      const INVOKE = `mutation($id: ID!, $a: String!) { invokeNotificationAction(id: $id, actionId: $a) { id } }`;
      const answered = async (choice: string | null) => {
        const seen = new Set((await inbox()).map((n: any) => n.id));
        const running = hook("claude-code", request, { HERALD_APPROVAL_WAIT_SECONDS: choice === null ? "0" : "60" });
        if (choice === null) {
          const result = await running;
          const all = await gql(
            served.url,
            person.token,
            `{ notifications(first: 50, filter: { includeTerminal: true }) { edges { node { id status title } } } }`,
          );
          return {
            result,
            question: all.data.notifications.edges.map((e: any) => e.node).find((n: any) => !seen.has(n.id) && n.title.includes("asks to use Bash")),
          };
        }
        let question: any;
        await eventually(async () => (question = (await inbox()).find((n: any) => !seen.has(n.id))) !== undefined, 20_000, "the question in the inbox");
        expect(question).toMatchObject({
          title: "infra · claude-code asks to use Bash",
          body: "Bash: terraform apply",
          severity: "WARNING",
          source: { plugin: "claude-code", subsystem: "approval" },
        });
        const invoked = await gql(served.url, person.token, INVOKE, { id: question.id, a: choice });
        expect(invoked.errors).toBeUndefined();
        return { result: await running, question };
      };
      const allowed = await answered("choice-1");
      expect(allowed.result).toMatchObject({ code: 0, stderr: "" });
      expect(JSON.parse(allowed.result.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } });
      const denied = await answered("choice-2");
      expect(JSON.parse(denied.result.stdout)).toMatchObject({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny" } } });
      // No answer within the wait: nothing printed (Claude Code asks in its terminal), and the question is withdrawn.
      const unanswered = await answered(null);
      expect(unanswered.result).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(unanswered.question).toMatchObject({ status: "EXPIRED" });
    });

    it("Codex: agent-turn-complete counts once by its turn id; other types count nothing", async () => {
      const payload = {
        type: "agent-turn-complete",
        "thread-id": `cx-${provider.name}-1`,
        "turn-id": "turn-1",
        cwd: "/w/api",
        "input-messages": ["add a health route"],
        "last-assistant-message": "Added GET /health.",
      };
      expect(await hook("codex", payload)).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(await hook("codex", payload)).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(await hook("codex", { type: "approval-requested", "thread-id": payload["thread-id"] })).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(await session("codex", payload["thread-id"])).toMatchObject({ sourceGeneration: "1", completionId: "turn-1" });
      const ofCodex = async () => (await inbox()).filter((n: any) => n.source.plugin === "codex");
      // Published at once, then retitled in place when the (built-in) labeler names the session.
      await eventually(async () => (await ofCodex())[0]?.revision === 2, 15_000, "the completion retitled with the label");
      expect(await ofCodex()).toMatchObject([{ key: "exchange", revision: 2, body: "Added GET /health." }]);
    });

    it("a transcript path that is a FIFO, a directory, a device, missing or huge: the hook returns within its budget and still reports", async () => {
      const fifo = join(dir.path, `fifo-${provider.name}.jsonl`);
      execFileSync("mkfifo", [fifo]);
      const folder = join(dir.path, `folder-${provider.name}.jsonl`);
      mkdirSync(folder);
      // 8 GiB, sparse: all but its last lines are holes, and the hook reads only its end.
      const huge = join(dir.path, `huge-${provider.name}.jsonl`);
      const fd = openSync(huge, "w");
      const tail = Buffer.from(
        `\n${JSON.stringify(user("u1", "the huge one", { promptId: "p1" }))}\n${JSON.stringify(assistant("a-huge", "Read the end."))}\n`,
      );
      writeSync(fd, tail, 0, tail.length, 8 * 1024 ** 3);
      closeSync(fd);
      const cases = [
        [fifo, /ENOTFILE/],
        [folder, /ENOTFILE/],
        ["/dev/zero", /ENOTFILE/],
        [join(dir.path, "absent.jsonl"), /ENOENT/],
      ] as const;
      for (const [i, [path, why]] of cases.entries()) {
        const sessionId = `odd-${provider.name}-${i}`;
        const r = await hook("claude-code", {
          session_id: sessionId,
          transcript_path: path,
          cwd: "/w/odd",
          prompt_id: "p1",
          hook_event_name: "Stop",
          last_assistant_message: "Done.",
        });
        expect(r).toMatchObject({ code: 0, stdout: "" });
        expect(r.stderr).toMatch(why);
        // Reported without a completion id: it notifies, and counts nothing.
        const reported = await session("claude-code", sessionId);
        expect(reported, JSON.stringify(reported)).toMatchObject({ sourceGeneration: expect.any(String) });
        expect(reported.completionId || null, JSON.stringify(reported)).toBeNull();
      }
      const r = await hook("claude-code", {
        session_id: `huge-${provider.name}`,
        transcript_path: huge,
        cwd: "/w/odd",
        prompt_id: "p1",
        hook_event_name: "Stop",
        last_assistant_message: "Read the end.",
      });
      expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(await session("claude-code", `huge-${provider.name}`)).toMatchObject({ sourceGeneration: "1", completionId: "a-huge" });
    });

    // Tests run as root, who reads every file: the hook runs as nobody against root's 0600 file.
    it.skipIf(process.getuid?.() !== 0 || !existsSync("/usr/bin/setpriv"))(
      "an unreadable transcript path: the hook returns within its budget, exits 0 and still reports",
      async () => {
        chmodSync(dir.path, 0o711);
        const secret = transcript([user("u1", "private", { promptId: "p1" }), assistant("a-secret", "Private answer.")]);
        chmodSync(secret, 0o600);
        const sessionId = `unreadable-${provider.name}`;
        const payload = {
          session_id: sessionId,
          transcript_path: secret,
          cwd: "/w/odd",
          prompt_id: "p1",
          hook_event_name: "Stop",
          last_assistant_message: "Private answer.",
        };
        const asNobody = spawn(
          "/usr/bin/setpriv",
          ["--reuid=65534", "--regid=65534", "--clear-groups", "--", process.execPath, heraldBin, "hook", "claude-code"],
          {
            env: { ...process.env, ...env, HERALD_PRODUCER_KEY: keys["claude-code"]! },
            stdio: ["pipe", "pipe", "pipe"],
          },
        );
        let stdout = "";
        let stderr = "";
        asNobody.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
        asNobody.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
        asNobody.stdin.end(JSON.stringify(payload));
        const code = await new Promise<number | null>((resolve) => asNobody.once("close", resolve));
        expect({ code, stdout }).toEqual({ code: 0, stdout: "" });
        expect(stderr).toMatch(/^herald hook claude-code: cannot read the transcript \(EACCES\); reporting without a completion id\n$/);
        // Reported without a completion id: it notifies, and counts nothing.
        const reported = await session("claude-code", sessionId);
        expect(reported).toMatchObject({ sourceGeneration: expect.any(String) });
        expect(reported.completionId || null).toBeNull();
      },
    );

    it("a failure never fails the agent: exit 0, nothing on stdout, one line on stderr", async () => {
      const payload = { type: "agent-turn-complete", "thread-id": "cx-x", "turn-id": "t" };
      const refused = await hook("codex", payload, { HERALD_PRODUCER_KEY: "herald_pk_not-a-key" });
      expect(refused).toMatchObject({ code: 0, stdout: "" });
      expect(refused.stderr).toMatch(/^herald hook codex: .*UNAUTHENTICATED.*\n$/);
      expect(refused.stderr).not.toContain("herald_pk_not-a-key");
      const path = transcript([user("u1", "hi"), assistant("a1", "Hello.")]);
      const unreachable = await hook(
        "claude-code",
        { session_id: "s", transcript_path: path, cwd: "/", hook_event_name: "Stop" },
        { HERALD_URL: "http://127.0.0.1:9" },
      );
      expect(unreachable).toMatchObject({ code: 0, stdout: "" });
      expect(unreachable.stderr).toMatch(/^herald hook claude-code: cannot reach Herald at http:\/\/127\.0\.0\.1:9\/graphql \([^\n]*\)\n$/);
      const garbage = await heraldRaw(["hook", "claude-code"], env, "{not json");
      expect({ code: garbage.code, stdout: garbage.stdout.toString(), stderr: garbage.stderr.toString() }).toEqual({
        code: 0,
        stdout: "",
        stderr: "herald hook claude-code: the hook input is not JSON\n",
      });
    });
  });
}
