// A permission request through the real Claude Code 2.1 (`claude -p`) with the hooks installed by
// `herald hooks install claude-code --approvals`: the fake model asks to run a Bash command that
// needs permission, the hook turns the request into a Herald question, and the person's answer
// from the dashboard's API decides it. Allow: the command runs. Deny: it does not, and the model
// is told. No answer within the wait: the hook prints nothing, the question is withdrawn and
// Claude Code's own handling applies (in print mode, no terminal to ask in: not run).
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createTempDir, eventually, type TempDir } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnthropicRequest, type FakeAnthropic, startFakeAnthropic } from "./fakes/anthropic-messages.ts";
import { harnessBin, harnessesInstalled } from "./support/harnesses.ts";
import { type HeraldForHooks, run, type Run } from "./support/herald-for-hooks.ts";
import { startHeraldForHooks } from "./support/herald-for-hooks.ts";

const claude = harnessBin("claude");
const QUESTIONS = `{ notifications(first: 50, filter: { includeTerminal: true }) { edges { node { id status title body source { plugin subsystem } } } } }`;
const INVOKE = `mutation($id: ID!, $a: String!) { invokeNotificationAction(id: $id, actionId: $a) { id } }`;

describe.skipIf(!harnessesInstalled("@anthropic-ai/claude-code"))("Claude Code's permission requests answered through Herald", { timeout: 400_000 }, () => {
  let herald: HeraldForHooks;
  let fake: FakeAnthropic;
  let home: TempDir;
  let project: string;
  const marker = (name: string) => join(home.path, `ran-${name}`);

  /** Ask to run `touch <marker>` for the case the prompt names; then say what the tool returned. */
  function script(r: AnthropicRequest) {
    const messages = r.body.messages ?? [];
    const last = messages.at(-1) as { content?: unknown } | undefined;
    const result = Array.isArray(last?.content) ? (last.content as { type?: string }[]).find((b) => b.type === "tool_result") : undefined;
    if (result) return `TOOL RESULT: ${JSON.stringify(result)}`;
    const name = /CASE-(\w+)/.exec(JSON.stringify(messages))?.[1] ?? "none";
    return { toolUse: { name: "Bash", input: { command: `touch ${marker(name)}`, description: `Create the ${name} marker` } } };
  }

  beforeAll(async () => {
    [herald, fake] = await Promise.all([startHeraldForHooks("claude-code"), startFakeAnthropic(script)]);
    home = createTempDir("herald-claude-approvals-");
    project = join(home.path, "infra");
    mkdirSync(join(project, ".claude"), { recursive: true });
    const installed = await run("herald", ["hooks", "install", "claude-code", "--scope", "project", "--approvals"], { cwd: project, env: env() });
    expect(installed).toMatchObject({ code: 0, stderr: "" });
  }, 300_000);
  afterAll(async () => {
    await Promise.all([herald?.close(), fake?.close()]);
    home?.remove();
  });

  function env(extra: Record<string, string> = {}) {
    return {
      PATH: herald.path,
      HOME: home.path,
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-ant-test-not-a-key",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
      ...herald.hookEnv,
      ...extra,
    };
  }

  const questions = async () =>
    (await herald.asPerson(QUESTIONS)).notifications.edges.map((e: any) => e.node).filter((n: any) => n.source.subsystem === "approval");
  /** The tool result the model was sent last. */
  const lastToolResult = () =>
    JSON.stringify(
      fake.requests
        .filter((r) => r.path === "/v1/messages")
        .at(-1)
        ?.body.messages?.at(-1) ?? "",
    );

  async function turn(name: string, answer: "choice-1" | "choice-2" | null): Promise<{ turn: Run; question: any }> {
    const seen = new Set((await questions()).map((q: any) => q.id));
    const running = run(claude, ["-p", `CASE-${name}: create the marker file`, "--output-format", "json"], {
      cwd: project,
      env: env(answer === null ? { HERALD_APPROVAL_WAIT_SECONDS: "0" } : {}),
    });
    let question: any;
    await eventually(async () => (question = (await questions()).find((q: any) => !seen.has(q.id))) !== undefined, 120_000, `the question for ${name}`);
    expect(question).toMatchObject({ title: "infra · claude-code asks to use Bash", body: `Bash: touch ${marker(name)}` });
    if (answer) expect((await herald.asPerson(INVOKE, { id: question.id, a: answer })).invokeNotificationAction).toBeTruthy();
    const done = await running;
    expect(done, done.stderr).toMatchObject({ code: 0 });
    return { turn: done, question: (await questions()).find((q: any) => q.id === question.id) };
  }

  it("Allow runs the command", async () => {
    await turn("allow", "choice-1");
    expect(existsSync(marker("allow"))).toBe(true);
    expect(lastToolResult()).not.toContain('"is_error":true');
  });

  it("Deny does not run it, and the model is told", async () => {
    await turn("deny", "choice-2");
    expect(existsSync(marker("deny"))).toBe(false);
    expect(lastToolResult()).toContain('"is_error":true');
  });

  it("no answer: the question is withdrawn and Claude Code decides as without the hook (not run in print mode)", async () => {
    const { question } = await turn("unanswered", null);
    expect(question.status).toBe("EXPIRED");
    expect(existsSync(marker("unanswered"))).toBe(false);
    expect(lastToolResult()).toContain('"is_error":true');
  });
});
