// The Pi extension's label consumer in Pi's interactive TUI (on a pseudo-terminal), against a real
// `herald serve` and a fake OpenAI-compatible model: the TUI is where the consumer runs (RPC and
// print modes report or do nothing, pi.test.ts and below). A finished answer titles the terminal
// with exactly the shared label; a name given with /name stops the label reads at once, the helper
// in flight included, and is never overridden; with a remote Herald (HERALD_URL, no local store)
// the label is read over HTTP. In print mode (how Pi runs sub-agents and scripts) the extension
// neither reports nor reads.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTempDir, eventually, type TempDir } from "@herald/testkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAIChat, lastMessage, messageText, startFakeOpenAIChat } from "./fakes/openai-chat.ts";
import {
  type AdapterHerald,
  HARNESS_TEST_TIMEOUT_MS,
  LABEL,
  metadataCommand,
  SESSION_QUERY,
  SETUP_TIMEOUT_MS,
  startAdapterHerald,
} from "./support/adapter-herald.ts";
import { harnessesInstalled } from "./support/harnesses.ts";
import { piBin, piExtension, writePiHome } from "./support/pi-rpc.ts";
import { type PiTui, startPiTui } from "./support/pi-tui.ts";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(!harnessesInstalled("@mariozechner/pi-coding-agent"))("the Pi extension in Pi's TUI", { timeout: HARNESS_TEST_TIMEOUT_MS }, () => {
  let h: AdapterHerald;
  let model: FakeOpenAIChat;
  let home: TempDir;
  let tui: PiTui | null = null;
  const project = () => join(home.path, "shop-frontend");
  const agentDir = () => join(home.path, "agent");
  /** The `herald` the extension runs: the real one, or (with a `block` file) one that records its pid and hangs. */
  const helper = () => join(home.path, "herald-helper");
  const helperRuns = () => readdirSync(home.path).filter((f) => f.startsWith("helper-pid-"));
  /** The session files Pi wrote, newest last. */
  const sessionIds = () =>
    readdirSync(join(agentDir(), "sessions"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => JSON.parse(readFileSync(join(agentDir(), "sessions", f), "utf8").split("\n")[0]!).id as string);
  const sessionOf = async (id: string) => (await h.graphql(h.key, SESSION_QUERY, { h: "pi", s: id })).session;

  beforeAll(async () => {
    h = await startAdapterHerald("pi");
    model = await startFakeOpenAIChat((request) => ({ text: `Done: ${messageText(lastMessage(request, "user"))}.` }));
    home = createTempDir("herald-pi-tui-");
    mkdirSync(project());
    writePiHome(agentDir(), model.baseUrl);
    writeFileSync(
      helper(),
      `#!/bin/sh\nif [ -e ${join(home.path, "block")} ]; then echo $$ > ${join(home.path, "helper-pid-")}$$; exec sleep 60; fi\nexec ${metadataCommand} "$@"\n`,
    );
    chmodSync(helper(), 0o755);
  }, SETUP_TIMEOUT_MS);

  afterEach(async () => {
    await tui?.stop();
    tui = null;
  });

  afterAll(async () => {
    await h?.close();
    await model?.close();
    home?.remove();
  });

  const start = (env: Record<string, string> = {}) => {
    tui = startPiTui({
      cwd: project(),
      home: home.path,
      agentDir: agentDir(),
      env: { ...h.adapterEnv, HERALD_BIN: helper(), DATABASE_URL: h.store.url, ...env },
    });
    return tui.waitFor((t) => t.titles().includes("π - shop-frontend"), "Pi's own first title");
  };

  it("titles the terminal with exactly the session's label after an answer", async () => {
    await start();
    tui!.submit("Please fix the login redirect bug");
    await tui!.waitFor((t) => t.titles().includes(LABEL), "the label as the terminal title");
    const [id] = sessionIds();
    expect(await sessionOf(id!)).toMatchObject({ label: LABEL, sourceGeneration: "1" });
  });

  it("a name given with /name stops the label reads at once, the helper in flight included, and wins", async () => {
    await start();
    writeFileSync(join(home.path, "block"), "");
    tui!.submit("Please fix the checkout rounding");
    // The report landed and the first read started: its helper hangs.
    await eventually(() => helperRuns().length === 1, 60_000, "the label helper started");
    // The pid from the file's name: its content may not be written yet when the file is first seen,
    // and Number("") is 0, which process.kill(0, 0) finds alive forever (the test's own group).
    const pid = Number(helperRuns()[0]!.slice("helper-pid-".length));
    expect(pid).toBeGreaterThan(1);
    tui!.submit("/name My own name");
    await tui!.waitFor((t) => t.titles().includes("π - My own name - shop-frontend"), "Pi's title with the manual name");
    await eventually(() => !alive(pid), 30_000, "the helper in flight killed");
    // The schedule is over: the reads at 250 ms and 1 s that fell due meanwhile never start a helper.
    expect(helperRuns()).toHaveLength(1);
    expect(tui!.titles().filter((t) => t === LABEL)).toHaveLength(0);
  });

  it("with a remote Herald (HERALD_URL, no local store) reads the label over HTTP", async () => {
    // No DATABASE_URL and no herald to run: the label can only come over HTTP, with the producer key.
    await start({ DATABASE_URL: "", HERALD_BIN: join(home.path, "no-such-herald") });
    tui!.submit("Please fix the search pagination");
    await tui!.waitFor((t) => t.titles().includes(LABEL), "the label as the terminal title");
    expect(tui!.output).not.toContain("session-metadata");
  });

  it("in print mode neither reports nor reads the label", async () => {
    const before = new Set(sessionIds());
    const runs = helperRuns().length;
    const printed = spawn(piBin, ["-p", "--provider", "fake", "--model", "fake-model", "-e", piExtension, "Summarise the repository"], {
      cwd: project(),
      env: {
        ...process.env,
        HOME: home.path,
        PI_CODING_AGENT_DIR: agentDir(),
        PI_OFFLINE: "1",
        PI_SKIP_VERSION_CHECK: "1",
        ...h.adapterEnv,
        HERALD_BIN: helper(),
        DATABASE_URL: h.store.url,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    printed.stdout.on("data", (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => printed.once("close", resolve));
    expect(code).toBe(0);
    expect(out).toContain("Done: Summarise the repository.");
    const created = sessionIds().filter((id) => !before.has(id));
    expect(created).toHaveLength(1);
    expect(await sessionOf(created[0]!)).toBeNull();
    expect(helperRuns()).toHaveLength(runs);
    expect(existsSync(join(home.path, "block"))).toBe(true);
  });
});
