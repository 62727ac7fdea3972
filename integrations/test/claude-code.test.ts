// Claude Code 2.1 (the real binary from node_modules) in print mode against a local fake of
// Anthropic's Messages API, with Herald's hooks installed by `herald hooks install claude-code
// --scope project` into a project that already has hooks of its own, and a real `herald serve`.
// The turn starts a background sub-agent, so one run shows a person's exchange, a sub-agent's
// SubagentStop and the internal turn Claude Code starts when the sub-agent ends.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTempDir, eventually, type TempDir } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnthropicRequest, type FakeAnthropic, startFakeAnthropic } from "./fakes/anthropic-messages.ts";
import { harnessBin, harnessesInstalled } from "./support/harnesses.ts";
import { type HeraldForHooks, INBOX_QUERY, run, SESSION_QUERY, startHeraldForHooks } from "./support/herald-for-hooks.ts";

const claude = harnessBin("claude");
const PROMPT = "please fix the login redirect";
const ANSWER = "I fixed the login redirect in router.ts; the helper confirmed where it lives.";

const lastIsToolResult = (r: AnthropicRequest) => {
  const last = r.body.messages?.at(-1) as { content?: unknown } | undefined;
  return Array.isArray(last?.content) && last.content.some((b: { type?: string }) => b.type === "tool_result");
};
const mentions = (r: AnthropicRequest, text: string) => JSON.stringify(r.body.messages ?? []).includes(text);

/** The model's side of the run: start a helper, answer the person, then acknowledge the helper's result. */
function script(r: AnthropicRequest) {
  const last = JSON.stringify(r.body.messages?.at(-1) ?? "");
  if (last.includes("task-notification")) return "The helper finished; nothing more to do.";
  if (lastIsToolResult(r)) return ANSWER;
  if (mentions(r, "HELPER-TASK")) return "The redirect is handled in router.ts.";
  return {
    toolUse: {
      name: "Agent",
      input: { description: "Find the redirect code", prompt: "HELPER-TASK: find where the login redirect is handled", subagent_type: "general-purpose" },
    },
  };
}

describe.skipIf(!harnessesInstalled("@anthropic-ai/claude-code"))("Claude Code with herald hook claude-code", () => {
  let herald: HeraldForHooks;
  let fake: FakeAnthropic;
  let home: TempDir;
  let project: string;
  let payloads: string;

  // Three herald processes start here (key, person, serve): minutes on a busy two-core machine.
  beforeAll(async () => {
    [herald, fake] = await Promise.all([startHeraldForHooks("claude-code"), startFakeAnthropic(script)]);
    home = createTempDir("herald-claude-home-");
    project = join(home.path, "shop");
    payloads = join(home.path, "payloads.jsonl");
    mkdirSync(join(project, ".claude"), { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await Promise.all([herald?.close(), fake?.close()]);
    home?.remove();
  });

  const env = () => ({
    PATH: herald.path,
    HOME: home.path,
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: "sk-ant-test-not-a-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    ...herald.hookEnv,
  });

  it("one turn gives one labelled session notification for its session; a retried Stop and the sub-agent count nothing", async () => {
    // The project's own hooks: a recorder of every payload, and Herald on SubagentStop too (a
    // user may wire it there by hand; it must count nothing).
    const record = { type: "command", command: `cat >> ${payloads}; echo >> ${payloads}` };
    const heraldHook = { type: "command", command: "herald hook claude-code" };
    writeFileSync(
      join(project, ".claude", "settings.json"),
      JSON.stringify({ hooks: { Stop: [{ hooks: [record] }], SubagentStop: [{ hooks: [record, heraldHook] }] } }, null, 2),
    );
    const installed = await run("herald", ["hooks", "install", "claude-code", "--scope", "project"], { cwd: project, env: env() });
    expect(installed).toMatchObject({ code: 0, stderr: "" });
    expect(installed.stdout).toMatch(/^installed .*shop\/\.claude\/settings\.json \(backup: /);

    const turn = await run(claude, ["-p", PROMPT, "--output-format", "json"], { cwd: project, env: env() });
    expect(turn, turn.stderr).toMatchObject({ code: 0 });
    const result = JSON.parse(turn.stdout) as { session_id: string; result: string };
    const sessionId = result.session_id;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    // What Claude Code delivered: the person's Stop, the helper's SubagentStop, the internal turn's Stop.
    const delivered = readFileSync(payloads, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(delivered.map((p) => p.hook_event_name).sort()).toEqual(["Stop", "Stop", "SubagentStop"]);
    const firstStop = delivered.find((p) => p.hook_event_name === "Stop" && p.last_assistant_message === ANSWER);
    expect(firstStop).toMatchObject({ session_id: sessionId, cwd: project });

    // The exchange's completion id is the uuid of the person's turn's last assistant entry.
    const transcript = readFileSync(firstStop.transcript_path, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const answerEntry = transcript.find((e) => e.type === "assistant" && JSON.stringify(e.message.content).includes(ANSWER));
    // The label is made in the background after the exchange is accepted.
    const sessionNow = async () => (await herald.asProducer(SESSION_QUERY, { h: "claude-code", s: sessionId })).session;
    await eventually(async () => (await sessionNow())?.label !== "", 30_000, "the session's label");
    const session = await sessionNow();
    expect(session).toMatchObject({ sourceGeneration: "1", completionId: answerEntry.uuid, labelGeneration: "1" });

    // One notification for the session, from claude-code: the exchange's, revised by the internal turn.
    const ofClaude = async () =>
      (await herald.asPerson(INBOX_QUERY)).notifications.edges.map((e: any) => e.node).filter((n: any) => n.source.plugin === "claude-code");
    // The label arrives beside the internal turn's revision: whichever lands first, the notification ends titled with
    // the label, as revision 2 (the internal turn already carried it) or 3 (published, retitled, revised).
    await eventually(async () => (await ofClaude())[0]?.title === `${session.label} · claude-code finished`, 30_000, "the notification titled with the label");
    const notifications = await ofClaude();
    expect(notifications).toMatchObject([{ key: "exchange", scope: "SESSION", sessionId: session.id, title: `${session.label} · claude-code finished` }]);
    expect([2, 3]).toContain(notifications[0].revision);

    // The session's label as a local consumer reads it.
    const metadata = await herald.cli.run("session-metadata", "--harness", "claude-code", "--session-id", sessionId, "--database-url", herald.databaseUrl);
    expect(JSON.parse(metadata.stdout)).toMatchObject({ status: "known", label: session.label, completion_id: answerEntry.uuid, source_generation: "1" });

    // Claude Code delivers the same Stop again: nothing is counted or published.
    const retried = await run("herald", ["hook", "claude-code"], { cwd: project, env: env(), stdin: JSON.stringify(firstStop) });
    expect(retried).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect((await herald.asProducer(SESSION_QUERY, { h: "claude-code", s: sessionId })).session).toMatchObject({
      sourceGeneration: "1",
      completionId: answerEntry.uuid,
    });
    expect(await ofClaude()).toEqual(notifications);
  });
});
