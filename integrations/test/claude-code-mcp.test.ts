// `herald mcp` from the real Claude Code 2.1 (`claude -p`) with its tool search on (its default
// with Anthropic's API; forced here, as a custom API URL may turn it off): Herald's tools are sent
// to the model in the prompt, not deferred behind the search (they carry `anthropic/alwaysLoad`),
// and the model's `notify` call reaches the person.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { heraldBin, createTempDir, eventually, type TempDir } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnthropicRequest, type FakeAnthropic, startFakeAnthropic } from "./fakes/anthropic-messages.ts";
import { harnessBin, harnessesInstalled } from "./support/harnesses.ts";
import { type HeraldForHooks, INBOX_QUERY, run, startHeraldForHooks } from "./support/herald-for-hooks.ts";

const claude = harnessBin("claude");
const NOTIFY = "mcp__herald__notify";

describe.skipIf(!harnessesInstalled("@anthropic-ai/claude-code"))("herald mcp in Claude Code with its tool search on", { timeout: 400_000 }, () => {
  let herald: HeraldForHooks;
  let fake: FakeAnthropic;
  let home: TempDir;
  let project: string;

  function script(r: AnthropicRequest) {
    const last = JSON.stringify(r.body.messages?.at(-1) ?? "");
    if (last.includes("tool_result")) return "Told the person.";
    const tools = (r.body.tools as { name?: string }[] | undefined) ?? [];
    // Only a model that was given the tool can call it.
    if (!tools.some((t) => t.name === NOTIFY)) return "I have no notify tool.";
    return { toolUse: { name: NOTIFY, input: { title: "Deploy finished", body: "All green.", severity: "success" } } };
  }

  beforeAll(async () => {
    [herald, fake] = await Promise.all([startHeraldForHooks("claude-code"), startFakeAnthropic(script)]);
    home = createTempDir("herald-claude-mcp-");
    project = join(home.path, "shop");
    mkdirSync(project, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await Promise.all([herald?.close(), fake?.close()]);
    home?.remove();
  });

  it("sends Herald's tools in the prompt, not deferred, and the model's notify reaches the person", async () => {
    const config = join(home.path, "mcp.json");
    // As the README sets it up: a key bound to plugin mcp.
    const key = await herald.cli.createProducerKey("agent", "mcp");
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { herald: { command: process.execPath, args: [heraldBin, "mcp"], env: { ...herald.hookEnv, HERALD_PRODUCER_KEY: key } } } }),
    );
    const env = {
      PATH: herald.path,
      HOME: home.path,
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-ant-test-not-a-key",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
      ENABLE_TOOL_SEARCH: "true",
    };
    const turn = await run(
      claude,
      ["-p", "Tell me when the deploy is done", "--mcp-config", config, "--strict-mcp-config", "--allowedTools", NOTIFY, "--output-format", "json"],
      { cwd: project, env },
    );
    expect(turn, turn.stderr).toMatchObject({ code: 0 });
    const first = fake.requests.find((r) => r.path === "/v1/messages" && Array.isArray(r.body.tools));
    const tools = (first?.body.tools ?? []) as { name?: string; defer_loading?: boolean }[];
    // The search is on: Claude Code sent its search tool, and some of its own tools deferred behind it.
    expect(tools.map((t) => t.name).join(" "), JSON.stringify(tools.map((t) => [t.name, t.defer_loading]))).toMatch(/tool_search|ToolSearch/i);
    const herald_ = tools.filter((t) => t.name?.startsWith("mcp__herald__"));
    expect(herald_.map((t) => t.name).sort()).toEqual(["mcp__herald__ask", "mcp__herald__await_answer", "mcp__herald__notify", "mcp__herald__progress"]);
    for (const tool of herald_) expect(tool.defer_loading ?? false, tool.name).toBe(false);
    const told = JSON.stringify(fake.requests.at(-1)?.body.messages?.at(-1) ?? "");
    expect(told).toContain("tool_result");
    expect(told).not.toContain('"is_error":true');
    await eventually(
      async () => (await herald.asPerson(INBOX_QUERY)).notifications.edges.some((e: any) => e.node.title === "Deploy finished"),
      30_000,
      "the notification",
    );
    expect(JSON.parse(turn.stdout).result).toBe("Told the person.");
  });
});
