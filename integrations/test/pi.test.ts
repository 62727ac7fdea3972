// The Pi extension inside the real Pi (RPC mode, as an editor embeds it), against a real
// `herald serve` and a fake OpenAI-compatible model server: one prompt reports one exchange for
// harness `pi`; the label consumer stays off (RPC mode has a UI but no terminal of its own: it
// runs in the TUI only, pi-tui.test.ts), so the client gets no setTitle and the session no name;
// Pi's own retry of a failed completion and a replayed report count nothing; a resumed session
// reports nothing.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTempDir, eventually, freePort, type TempDir } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OnceWarner, reportExchange, reporterConfig } from "../shared/report-exchange.ts";
import { type FakeOpenAIChat, lastMessage, messageText, startFakeOpenAIChat } from "./fakes/openai-chat.ts";
import {
  type AdapterHerald,
  INBOX_QUERY,
  LABEL,
  metadataCommand,
  SESSION_QUERY,
  HARNESS_TEST_TIMEOUT_MS,
  SETUP_TIMEOUT_MS,
  startAdapterHerald,
} from "./support/adapter-herald.ts";
import { pi as piInstaller } from "@herald/server/hooks-install/pi";
import { applyInstall } from "./support/apply-install.ts";
import { harnessesInstalled } from "./support/harnesses.ts";
import { type PiRpc, startPiRpc, writePiHome } from "./support/pi-rpc.ts";

describe.skipIf(!harnessesInstalled("@mariozechner/pi-coding-agent"))("the Pi extension in Pi's RPC mode", { timeout: HARNESS_TEST_TIMEOUT_MS }, () => {
  let h: AdapterHerald;
  let model: FakeOpenAIChat;
  let home: TempDir;
  let pi: PiRpc | null = null;
  /** How many of the next model requests fail with a retryable server error. */
  let failures = 0;
  let sessionId = "";
  let sessionFile = "";
  const project = () => join(home.path, "shop-frontend");
  /** The `herald` the extension would run for label reads: it leaves a mark, then runs the real one. */
  const helper = () => join(home.path, "herald-helper");
  const helperRan = () => existsSync(join(home.path, "helper-ran"));
  const titlesSet = () => pi!.lines.filter((l) => l.type === "extension_ui_request" && l.method === "setTitle");

  const start = (args: string[] = [], extension: "flag" | "installed" = "flag") =>
    startPiRpc({
      cwd: project(),
      home: home.path,
      agentDir: join(home.path, "agent"),
      env: { ...h.adapterEnv, HERALD_BIN: helper(), DATABASE_URL: h.store.url },
      args,
      extension,
    });
  const session = async () => (await h.graphql(h.key, SESSION_QUERY, { h: "pi", s: sessionId })).session;
  const inbox = async () => (await h.graphql(h.person.token, INBOX_QUERY)).notifications;
  /** The session file's assistant entries as Pi wrote them: their ids are the native completion ids. */
  const assistantEntries = () =>
    readFileSync(sessionFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.type === "message" && entry.message.role === "assistant");

  beforeAll(async () => {
    h = await startAdapterHerald("pi");
    model = await startFakeOpenAIChat((request) => {
      if (failures > 0) {
        failures--;
        return { status: 500, message: "The server had an error while processing your request." };
      }
      return { text: `Done: ${messageText(lastMessage(request, "user"))}. The redirect now keeps the return path.` };
    });
    home = createTempDir("herald-pi-");
    mkdirSync(project());
    writeFileSync(helper(), `#!/bin/sh\ntouch ${join(home.path, "helper-ran")}\nexec ${metadataCommand} "$@"\n`);
    chmodSync(helper(), 0o755);
    // Pi's own agent-level retry, quick; the provider SDK's retry off so Pi sees the failure.
    writePiHome(join(home.path, "agent"), model.baseUrl, { retry: { enabled: true, maxRetries: 2, baseDelayMs: 20, provider: { maxRetries: 0 } } });
    pi = start();
    const state = await pi.request({ type: "get_state" });
    sessionId = state.data.sessionId;
    sessionFile = state.data.sessionFile;
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await pi?.stop();
    await h?.close();
    await model?.close();
    home?.remove();
  });

  it("reports one prompt as one exchange of harness pi, and neither names the session nor titles the client", async () => {
    const from = pi!.lines.length;
    await pi!.request({ type: "prompt", message: "Please fix the login redirect bug" });
    await pi!.waitFor((l) => l.type === "agent_end", "the end of the run", { from });
    await eventually(async () => (await session())?.label === LABEL, 30_000, "the exchange reported and labelled");

    const [answer] = assistantEntries();
    expect(answer.message.content[0].text).toContain("Please fix the login redirect bug");
    const state = await session();
    expect(state).toMatchObject({ label: LABEL, completionId: answer.id, sourceGeneration: "1", labelGeneration: "1" });
    // The first exchange's notification goes out at once under the cwd's name, then is retitled in place with the label.
    await eventually(async () => (await inbox()).edges[0]?.node.revision === 2, 30_000, "the first notification retitled with the label");
    const notifications = await inbox();
    expect(notifications.totalCount).toBe(1);
    expect(notifications.edges[0].node).toMatchObject({
      key: "exchange",
      revision: 2,
      scope: "SESSION",
      sessionId: state.id,
      title: `${LABEL} · pi finished`,
      source: { plugin: "pi", subsystem: "exchange" },
      trigger: { ref: state.completionId },
    });
    expect(notifications.edges[0].node.body).toContain("The redirect now keeps the return path.");
    // The label is Herald's (titles of notifications); Pi's session keeps no name and its client no title.
    expect((await pi!.request({ type: "get_state" })).data.sessionName).toBeUndefined();
    expect(titlesSet()).toEqual([]);
    expect(helperRan()).toBe(false);
    expect(pi!.lines.filter((l) => l.type === "unparsed")).toEqual([]);
  });

  it("counts a completion Pi retried after a server error once, under the label", async () => {
    failures = 1;
    const from = pi!.lines.length;
    await pi!.request({ type: "prompt", message: "Now cover the redirect with a test" });
    await pi!.waitFor((l) => l.type === "auto_retry_end" && l.success === true, "Pi's successful retry", { from });
    await pi!.waitFor((l) => l.type === "agent_end", "the end of the retried run", {
      from: pi!.lines.findIndex((l, i) => i >= from && l.type === "auto_retry_end"),
    });
    // Pi keeps the failed attempt in its history as an entry of its own, then the retried answer.
    const [, failed, retried] = assistantEntries();
    expect([failed.message.stopReason, retried.message.stopReason]).toEqual(["error", "stop"]);
    await eventually(async () => (await session()).completionId === retried.id, 30_000, "the report of the retried completion");
    // One exchange more, not two: the failed attempt was not reported.
    expect(await session()).toMatchObject({ completionId: retried.id, sourceGeneration: "2" });
    const notifications = await inbox();
    expect(notifications.totalCount).toBe(1);
    expect(notifications.edges[0].node).toMatchObject({ revision: 3, title: `${LABEL} · pi finished` });
  });

  it("a replayed report of the same completion counts nothing", async () => {
    const before = await session();
    const outcome = await reportExchange(
      {
        harness: "pi",
        sessionId,
        completionId: before.completionId,
        cwd: project(),
        userText: "Now cover the redirect with a test",
        assistantText: "replayed",
      },
      reporterConfig(h.adapterEnv),
      new OnceWarner("test"),
    );
    expect(outcome).toMatchObject({ kind: "reported", duplicate: true });
    expect(await session()).toEqual(before);
    expect((await inbox()).edges[0].node.revision).toBe(3);
  });

  it("a resumed session reports nothing and reads no label (extension installed, not flagged)", async () => {
    await pi!.stop();
    const before = await session();
    // As `herald hooks install pi` leaves it: a file in Pi's extensions folder, found by Pi itself.
    const written = applyInstall(piInstaller, { home: home.path, env: { PI_CODING_AGENT_DIR: join(home.path, "agent") } });
    expect(written).toEqual([join(home.path, "agent", "extensions", "herald.ts")]);
    pi = start(["--session", sessionFile], "installed");
    const state = await pi.request({ type: "get_state" });
    expect(state.data.sessionId).toBe(sessionId);
    expect(state.data.sessionName).toBeUndefined();
    expect(await session()).toEqual(before);
    expect(titlesSet()).toEqual([]);
    expect(helperRan()).toBe(false);
  });

  it("an unreachable Herald neither fails nor holds up Pi, and is said once on stderr", async () => {
    await pi!.stop();
    const port = await freePort(); // nothing listens there
    applyInstall(piInstaller, { home: home.path, env: { PI_CODING_AGENT_DIR: join(home.path, "agent") } });
    pi = startPiRpc({
      cwd: project(),
      home: home.path,
      agentDir: join(home.path, "agent"),
      env: { ...h.adapterEnv, HERALD_URL: `http://127.0.0.1:${port}`, HERALD_BIN: metadataCommand, DATABASE_URL: h.store.url },
      args: ["--no-session"],
      extension: "installed",
    });
    for (const prompt of ["First question while Herald is down", "Second question while Herald is down"]) {
      const from = pi.lines.length;
      await pi.request({ type: "prompt", message: prompt });
      const end = await pi.waitFor((l) => l.type === "agent_end", `the end of "${prompt}"`, { from });
      expect(end.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
    }
    await eventually(() => pi!.stderr.includes("did not take the exchange report"), 30_000, "the extension's warning");
    const warnings = pi.stderr.split("\n").filter((line) => line.startsWith("herald:"));
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^herald: Herald at http://127\\.0\\.0\\.1:${port} did not take the exchange report \\(`))]);
    // Pi's protocol on stdout stayed clean.
    expect(pi.lines.filter((l) => l.type === "unparsed")).toEqual([]);
  });
});
