// The opencode plugin inside the real opencode (`opencode run`), against a real `herald serve` and
// a fake OpenAI-compatible model server: one turn reports one exchange for harness `opencode`
// before opencode exits, the session gets its label, and a continued session's next turn revises
// the same notification under that label; a sub-agent's session reports nothing.
import { spawn } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createTempDir, eventually, type TempDir } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAIChat, lastMessage, messageText, startFakeOpenAIChat } from "./fakes/openai-chat.ts";
import { opencode as opencodeInstaller } from "@herald/server/hooks-install/opencode";
import { applyInstall } from "./support/apply-install.ts";
import { harnessBin, harnessesInstalled, harnessPackage } from "./support/harnesses.ts";
import {
  type AdapterHerald,
  INBOX_QUERY,
  LABEL,
  SESSION_QUERY,
  HARNESS_TEST_TIMEOUT_MS,
  SETUP_TIMEOUT_MS,
  startAdapterHerald,
} from "./support/adapter-herald.ts";

const opencodeBin = harnessBin("opencode");
const plugin = join(import.meta.dirname, "..", "opencode", "index.ts");
const pluginPackage = harnessPackage("@opencode-ai/plugin");

/**
 * opencode installs `@opencode-ai/plugin` into its config folder with npm on a first start (about
 * a minute, from the registry). The same pinned version is in the harness install, so
 * the test hands opencode that folder as already installed: its manifest, its lock and the package.
 */
function preinstallPluginPackage(configHome: string): void {
  const dir = join(configHome, "opencode");
  mkdirSync(join(dir, "node_modules", "@opencode-ai"), { recursive: true });
  const dependencies = { "@opencode-ai/plugin": "1.18.33" };
  writeFileSync(join(dir, "package.json"), JSON.stringify({ dependencies }));
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify({ name: "opencode", lockfileVersion: 3, requires: true, packages: { "": { dependencies } } }));
  symlinkSync(pluginPackage, join(dir, "node_modules", "@opencode-ai", "plugin"));
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The JSON events `--format json` printed. */
  events: Record<string, any>[];
}

describe.skipIf(!harnessesInstalled("opencode-ai", "@opencode-ai/plugin"))("the opencode plugin in opencode run", { timeout: HARNESS_TEST_TIMEOUT_MS }, () => {
  let h: AdapterHerald;
  let model: FakeOpenAIChat;
  let home: TempDir;
  const project = () => join(home.path, "billing-service");

  const run = (args: string[]) =>
    new Promise<Run>((resolve, reject) => {
      const child = spawn(opencodeBin, ["run", "--print-logs", "--format", "json", ...args], {
        cwd: project(),
        env: {
          ...process.env,
          // opencode takes its working directory from PWD when it is set.
          PWD: project(),
          HOME: home.path,
          XDG_CONFIG_HOME: join(home.path, ".config"),
          XDG_DATA_HOME: join(home.path, ".local", "share"),
          XDG_CACHE_HOME: join(home.path, ".cache"),
          XDG_STATE_HOME: join(home.path, ".local", "state"),
          // No network: no models.dev catalogue, no updates, no shares, no LSP downloads.
          OPENCODE_DISABLE_MODELS_FETCH: "1",
          OPENCODE_DISABLE_AUTOUPDATE: "1",
          OPENCODE_DISABLE_SHARE: "1",
          OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
          OPENCODE_DISABLE_CLAUDE_CODE: "1",
          ...h.adapterEnv,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), HARNESS_TEST_TIMEOUT_MS - 10_000);
      child.once("error", reject);
      child.once("exit", (code) => {
        clearTimeout(timer);
        const events = stdout
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as Record<string, any>);
        resolve({ code, stdout, stderr, events });
      });
    });
  const succeeded = (result: Run) => {
    if (result.code !== 0) throw new Error(`opencode run exited ${result.code}:\n${result.stderr.slice(-12000)}\n${result.stdout.slice(-2000)}`);
  };
  const sessionIdOf = (result: Run): string => {
    const id = result.events.map((e) => e.sessionID ?? e.part?.sessionID).find((v) => typeof v === "string");
    if (!id) throw new Error(`no session id in opencode's output:\n${result.stdout}\n${result.stderr}`);
    return id;
  };
  /** The project's opencode.json: the fake provider, and the plugin by path when `withPlugin`. */
  const writeConfig = (withPlugin: boolean) => {
    const config = {
      $schema: "https://opencode.ai/config.json",
      provider: {
        fake: {
          npm: "@ai-sdk/openai-compatible",
          name: "Fake",
          options: { baseURL: model.baseUrl, apiKey: "fake-key" },
          models: { "fake-model": { name: "Fake Model" } },
        },
      },
      model: "fake/fake-model",
      autoupdate: false,
      share: "disabled",
      ...(withPlugin ? { plugin: [pathToFileURL(plugin).href] } : {}),
    };
    writeFileSync(join(project(), "opencode.json"), JSON.stringify(config, null, 2));
  };
  const session = async (id: string) => (await h.graphql(h.key, SESSION_QUERY, { h: "opencode", s: id })).session;
  const inbox = async () => (await h.graphql(h.person.token, INBOX_QUERY)).notifications;

  beforeAll(async () => {
    h = await startAdapterHerald("opencode");
    model = await startFakeOpenAIChat((request) => {
      const user = messageText(lastMessage(request, "user"));
      // opencode also asks its small model for a session title; any short text will do.
      if (/title generator/i.test(messageText(request.messages[0]))) return { text: "Billing fix" };
      // "delegate": the primary agent hands the work to a sub-agent with opencode's task tool.
      const tools = (request.body.tools as { function?: { name?: string } }[] | undefined) ?? [];
      const delegated = request.messages.some((m) => m.role === "tool");
      if (/delegate/i.test(user) && !delegated && tools.some((t) => t.function?.name === "task")) {
        return {
          toolCall: { name: "task", arguments: { description: "Check invoice rounding", prompt: "Check how invoices round", subagent_type: "general" } },
        };
      }
      if (delegated) return { text: "The sub-agent checked the rounding: invoices round half up." };
      return { text: `Done: ${user.slice(0, 80)}. Invoices now round half up.` };
    });
    home = createTempDir("herald-opencode-");
    mkdirSync(project());
    preinstallPluginPackage(join(home.path, ".config"));
    writeConfig(true);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await h?.close();
    await model?.close();
    home?.remove();
  });

  let sessionId = "";

  it("reports one turn as one exchange of harness opencode before opencode exits", async () => {
    const result = await run(["Please fix the invoice rounding"]);
    succeeded(result);
    sessionId = sessionIdOf(result);
    // opencode waited for the plugin's report on its way out: no polling needed for the count.
    const state = await session(sessionId);
    expect(state).toMatchObject({ sourceGeneration: "1" });
    expect(state.completionId).toMatch(/^msg_/);
    // The first exchange's notification goes out at once under the cwd's name, then is retitled in place with the label.
    await eventually(async () => (await inbox()).edges[0]?.node.revision === 2, 30_000, "the first notification retitled with the label");
    const notifications = await inbox();
    expect(notifications.totalCount).toBe(1);
    expect(notifications.edges[0].node).toMatchObject({
      key: "exchange",
      revision: 2,
      scope: "SESSION",
      sessionId: state.id,
      title: `${LABEL} · opencode finished`,
      source: { plugin: "opencode", subsystem: "exchange" },
      trigger: { ref: state.completionId },
    });
    expect(notifications.edges[0].node.body).toContain("Invoices now round half up.");
    // The labeler names the session in the background.
    await eventually(async () => (await session(sessionId)).label === LABEL, 30_000, "the session's label");
    expect(result.stdout).not.toContain("herald");
  });

  it("revises the same notification under the label when the session continues (plugin installed, not configured)", async () => {
    // From here on opencode finds the plugin where `herald hooks install opencode` puts it.
    writeConfig(false);
    expect(applyInstall(opencodeInstaller, { home: home.path, env: { XDG_CONFIG_HOME: join(home.path, ".config") } })).toEqual([
      join(home.path, ".config", "opencode", "plugins", "herald.ts"),
    ]);
    const before = (await inbox()).edges[0].node;
    const result = await run(["--session", sessionId, "Also round the tax lines"]);
    succeeded(result);
    expect(sessionIdOf(result)).toBe(sessionId);
    const state = await session(sessionId);
    expect(state).toMatchObject({ label: LABEL, sourceGeneration: "2" });
    const notifications = await inbox();
    expect(notifications.totalCount).toBe(1);
    expect(notifications.edges[0].node).toMatchObject({
      id: before.id,
      revision: 3,
      title: `${LABEL} · opencode finished`,
      trigger: { ref: state.completionId },
    });
  });

  it("reports the session that delegated, not its sub-agent's session", async () => {
    const before = (await inbox()).totalCount;
    const result = await run(["Please delegate the rounding check"]);
    succeeded(result);
    // The sub-agent ran: the model was asked the delegated prompt.
    expect(model.requests.some((r) => messageText(lastMessage(r, "user")) === "Check how invoices round")).toBe(true);
    const parent = sessionIdOf(result);
    expect(await session(parent)).toMatchObject({ sourceGeneration: "1" });
    const notifications = await inbox();
    // One more notification: the parent's. A reported child session would have added its own.
    expect(notifications.totalCount).toBe(before + 1);
    expect(notifications.edges[0].node.body).toContain("The sub-agent checked the rounding");
  });
});
