// Codex 0.169 (the real binary from node_modules) running `codex exec` against a local fake of
// OpenAI's Responses API (a model provider with `base_url` in a temporary CODEX_HOME), with
// Herald's notify program installed by `herald hooks install codex` into a config.toml that
// already has settings of its own, and a real `herald serve`.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTempDir, eventually, type TempDir } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeResponses, startFakeResponses } from "./fakes/openai-responses.ts";
import { harnessBin, harnessesInstalled } from "./support/harnesses.ts";
import { type HeraldForHooks, INBOX_QUERY, run, SESSION_QUERY, startHeraldForHooks } from "./support/herald-for-hooks.ts";

const codex = harnessBin("codex");
const PROMPT = "please add a health route to the api";
const ANSWER = "I added GET /health, which answers 200 with the service's status.";

describe.skipIf(!harnessesInstalled("@openai/codex"))("Codex with herald hook codex as its notify program", () => {
  let herald: HeraldForHooks;
  let fake: FakeResponses;
  let home: TempDir;
  let codexHome: string;
  let project: string;

  // Three herald processes start here (key, person, serve): minutes on a busy two-core machine.
  beforeAll(async () => {
    [herald, fake] = await Promise.all([startHeraldForHooks("codex"), startFakeResponses(() => ANSWER)]);
    home = createTempDir("herald-codex-home-");
    codexHome = join(home.path, "codex-home");
    project = join(home.path, "api");
    mkdirSync(codexHome);
    mkdirSync(project);
  }, 300_000);
  afterAll(async () => {
    await Promise.all([herald?.close(), fake?.close()]);
    home?.remove();
  });

  const env = () => ({ PATH: herald.path, HOME: home.path, CODEX_HOME: codexHome, FAKE_PROVIDER_KEY: "sk-test-not-a-key", ...herald.hookEnv });

  it("one turn gives one labelled session notification for its thread", async () => {
    const config = join(codexHome, "config.toml");
    const theirs = `# the fake model provider of this test
model = "fake-model"
model_provider = "fake"

[model_providers.fake]
name = "Fake Responses API"
base_url = "${fake.url}"
wire_api = "responses"
env_key = "FAKE_PROVIDER_KEY"
`;
    writeFileSync(config, theirs);
    const installed = await run("herald", ["hooks", "install", "codex"], { cwd: project, env: env() });
    expect(installed).toMatchObject({ code: 0, stderr: "" });
    expect(readFileSync(config, "utf8")).toBe(theirs.replace("\n[model_providers.fake]", '\nnotify = ["herald", "hook", "codex"]\n\n[model_providers.fake]'));

    const turn = await run(codex, ["exec", "--skip-git-repo-check", "--json", PROMPT], { cwd: project, env: env() });
    expect(turn, turn.stderr).toMatchObject({ code: 0 });
    expect(fake.requests.filter((r) => r.path === "/v1/responses")).toHaveLength(1);
    // `--json` prints the thread's events; the first names the thread (the session).
    const events = turn.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line));
    const threadId = events.find((e) => e.type === "thread.started")?.thread_id as string;
    expect(threadId).toMatch(/^[0-9a-f-]{36}$/);

    // Codex runs notify without waiting for it: wait for its exchange, then for the label.
    const sessionNow = async () => (await herald.asProducer(SESSION_QUERY, { h: "codex", s: threadId })).session;
    await eventually(async () => (await sessionNow())?.label !== undefined && (await sessionNow()).label !== "", 60_000, "the thread's labelled session");
    const session = await sessionNow();
    expect(session).toMatchObject({ sourceGeneration: "1", labelGeneration: "1" });
    expect(session.completionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(session.completionId).not.toBe(threadId);

    // The first exchange's notification goes out under the cwd's name, then is retitled in place with the label.
    await eventually(
      async () => (await herald.asPerson(INBOX_QUERY)).notifications.edges[0]?.node.revision === 2,
      30_000,
      "the notification retitled with the label",
    );
    const notifications = (await herald.asPerson(INBOX_QUERY)).notifications.edges.map((e: any) => e.node);
    expect(notifications).toMatchObject([
      {
        key: "exchange",
        scope: "SESSION",
        sessionId: session.id,
        revision: 2,
        title: `${session.label} · codex finished`,
        body: ANSWER,
        source: { plugin: "codex", subsystem: "exchange" },
      },
    ]);
    const metadata = await herald.cli.run("session-metadata", "--harness", "codex", "--session-id", threadId, "--database-url", herald.databaseUrl);
    expect(JSON.parse(metadata.stdout)).toMatchObject({ status: "known", label: session.label, completion_id: session.completionId, source_generation: "1" });

    // The same turn reported again (Codex's notify payload for it) counts and publishes nothing.
    const again = {
      type: "agent-turn-complete",
      "thread-id": threadId,
      "turn-id": session.completionId,
      cwd: project,
      "input-messages": [PROMPT],
      "last-assistant-message": ANSWER,
    };
    expect(await run("herald", ["hook", "codex", JSON.stringify(again)], { cwd: project, env: env() })).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(await sessionNow()).toEqual(session);
    expect((await herald.asPerson(INBOX_QUERY)).notifications.edges.map((e: any) => e.node)).toEqual(notifications);
  });

  it("labels follow the latest user message at exchanges 1, 5 and 9 of one thread (codex exec, then exec resume)", async () => {
    // Each prompt's first distinctive words are its label under the built-in labeler.
    const prompts = [
      "add health route endpoint to the api",
      "log each request",
      "return json errors",
      "document the route",
      "export billing invoices as csv files",
      "sort the rows",
      "name the file by month",
      "stream large exports",
      "paginate search results with cursors",
    ];
    const expected: Record<number, string> = { 1: "Add Health Route Endpoint", 5: "Export Billing Invoices Csv", 9: "Paginate Search Results Cursors" };
    let threadId = "";
    for (const [i, prompt] of prompts.entries()) {
      const n = i + 1;
      const args = n === 1 ? ["exec", "--skip-git-repo-check", "--json", prompt] : ["exec", "resume", "--skip-git-repo-check", "--json", threadId, prompt];
      const turn = await run(codex, args, { cwd: project, env: env() });
      expect(turn, turn.stderr).toMatchObject({ code: 0 });
      if (n === 1)
        threadId = turn.stdout
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line))
          .find((e) => e.type === "thread.started")?.thread_id;
      const sessionNow = async () => (await herald.asProducer(SESSION_QUERY, { h: "codex", s: threadId })).session;
      // Codex runs notify without waiting for it: wait for this exchange (and at a refresh, its label) before the next.
      const label = expected[n];
      await eventually(
        async () => {
          const s = await sessionNow();
          return s?.sourceGeneration === String(n) && (!label || s.labelGeneration === String(n));
        },
        60_000,
        `exchange ${n}${label ? " and its label" : ""}`,
      );
      if (label) expect((await sessionNow()).label, `the label at exchange ${n}`).toBe(label);
    }
  });
});
