// `herald hooks install` as a user runs it: the real binary against real files in a temporary
// HOME. What must hold: the rest of the user's configuration is kept, a second run changes
// nothing, the previous file is backed up, and a refused merge writes nothing.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTempDir, type TempDir } from "@herald/testkit";
import { parse } from "smol-toml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mergeCodexConfig } from "../../src/cli/hooks-install/codex.ts";
import { install, installContext, installerOf } from "../../src/cli/hooks-install/install.ts";
import { heraldRaw } from "../support/processes.ts";

let home: TempDir;
beforeEach(() => {
  home = createTempDir("herald-hooks-");
});
afterEach(() => home.remove());

async function herald(args: string[], env: Record<string, string> = {}) {
  const r = await heraldRaw(args, { HOME: home.path, CODEX_HOME: "", ...env });
  return { stdout: r.stdout.toString(), stderr: r.stderr.toString(), code: r.code };
}
const backups = (dir: string) => readdirSync(dir).filter((f) => f.includes(".herald-backup-"));

describe("herald hooks install claude-code", () => {
  it("--print shows the hooks for Stop and Notification and writes nothing", async () => {
    const r = await herald(["hooks", "install", "claude-code", "--print"]);
    expect(r.code).toBe(0);
    const hook = { type: "command", command: "herald hook claude-code", timeout: 10 };
    expect(JSON.parse(r.stdout)).toEqual({ hooks: { Stop: [{ hooks: [hook] }], Notification: [{ hooks: [hook] }] } });
    expect(existsSync(join(home.path, ".claude"))).toBe(false);
  });

  it("merges into existing settings, keeping every other setting and hook, backs the old file up, and a second run changes nothing", async () => {
    const dir = join(home.path, ".claude");
    mkdirSync(dir);
    const file = join(dir, "settings.json");
    const theirs = {
      model: "opus",
      permissions: { allow: ["Bash(npm test)"] },
      hooks: {
        Stop: [{ matcher: "", hooks: [{ type: "command", command: "say done" }] }],
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "audit" }] }],
      },
    };
    const original = `${JSON.stringify(theirs, null, 4)}\n`;
    writeFileSync(file, original);

    const first = await herald(["hooks", "install", "claude-code"]);
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(first.stdout).toMatch(/^installed .*settings\.json \(backup: .*settings\.json\.herald-backup-\d{8}T\d{6}Z\)\n$/);
    const merged = JSON.parse(readFileSync(file, "utf8"));
    const ours = { type: "command", command: "herald hook claude-code", timeout: 10 };
    expect(merged).toEqual({
      ...theirs,
      hooks: {
        Stop: [...theirs.hooks.Stop, { hooks: [ours] }],
        PreToolUse: theirs.hooks.PreToolUse,
        Notification: [{ hooks: [ours] }],
      },
    });
    expect(backups(dir)).toHaveLength(1);
    expect(readFileSync(join(dir, backups(dir)[0]!), "utf8")).toBe(original);

    const written = readFileSync(file, "utf8");
    const second = await herald(["hooks", "install", "claude-code"]);
    expect(second).toMatchObject({ code: 0, stdout: `unchanged ${file} (already installed)\n` });
    expect(readFileSync(file, "utf8")).toBe(written);
    expect(backups(dir)).toHaveLength(1);
  });

  it("--approvals adds the PermissionRequest hook with a timeout above the hook's wait; harnesses without one refuse it", async () => {
    const r = await herald(["hooks", "install", "claude-code", "--print", "--approvals"]);
    expect(r.code).toBe(0);
    const hook = { type: "command", command: "herald hook claude-code", timeout: 10 };
    expect(JSON.parse(r.stdout)).toEqual({
      hooks: { Stop: [{ hooks: [hook] }], Notification: [{ hooks: [hook] }], PermissionRequest: [{ hooks: [{ ...hook, timeout: 60 }] }] },
    });
    const refused = await herald(["hooks", "install", "codex", "--approvals"]);
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toMatch(/invalid --approvals: codex has no permission hook/);
  });

  it("two installs within one second keep the original in its own backup", async () => {
    const dir = join(home.path, ".claude");
    mkdirSync(dir);
    const file = join(dir, "settings.json");
    const original = `${JSON.stringify({ model: "opus" })}\n`;
    writeFileSync(file, original);
    const installer = installerOf("claude-code");
    const now = new Date("2026-12-04T16:00:00.250Z");
    const [first] = await install(installer, installContext(installer, {}, { HOME: home.path }), now);
    const [second] = await install(installer, installContext(installer, { command: "/opt/herald" }, { HOME: home.path }), new Date("2026-12-04T16:00:00.750Z"));
    expect(first!.backup).toBe(`${file}.herald-backup-20261204T160000Z`);
    expect(second!.backup).toBe(`${file}.herald-backup-20261204T160000Z-2`);
    expect(readFileSync(first!.backup!, "utf8")).toBe(original);
    expect(JSON.parse(readFileSync(second!.backup!, "utf8")).hooks.Stop[0].hooks[0].command).toBe("herald hook claude-code");
  });

  it("updates its own hook in place when installed again with another --command", async () => {
    await herald(["hooks", "install", "claude-code"]);
    await herald(["hooks", "install", "claude-code", "--command", "/opt/my herald/bin/herald"]);
    const settings = JSON.parse(readFileSync(join(home.path, ".claude", "settings.json"), "utf8"));
    for (const event of ["Stop", "Notification"]) {
      expect(settings.hooks[event]).toEqual([{ hooks: [{ type: "command", command: "'/opt/my herald/bin/herald' hook claude-code", timeout: 10 }] }]);
    }
  });

  it("--scope project writes the working directory's .claude/settings.json, not the user's", async () => {
    const project = join(home.path, "project");
    mkdirSync(project);
    const r = await heraldRawIn(project, ["hooks", "install", "claude-code", "--scope", "project"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(project, ".claude", "settings.json"), "utf8")).hooks.Stop).toHaveLength(1);
    expect(existsSync(join(home.path, ".claude"))).toBe(false);
  });

  it("refuses settings that are not JSON, naming the file, and leaves them as they were", async () => {
    const dir = join(home.path, ".claude");
    mkdirSync(dir);
    writeFileSync(join(dir, "settings.json"), "{ model: opus,");
    const r = await herald(["hooks", "install", "claude-code"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^herald: .*settings\.json is not valid JSON/);
    expect(r.stdout).toBe("");
    expect(readFileSync(join(dir, "settings.json"), "utf8")).toBe("{ model: opus,");
    expect(backups(dir)).toEqual([]);
  });

  it("refuses an unknown harness or scope, naming what is supported", async () => {
    expect(await herald(["hooks", "install", "vim"])).toMatchObject({
      code: 2,
      stderr: "herald: invalid harness: must be one of claude-code, codex, pi, opencode\n",
    });
    expect(await herald(["hooks", "install", "codex", "--scope", "project"])).toMatchObject({
      code: 2,
      stderr: "herald: invalid scope: codex supports user\n",
    });
  });
});

describe("herald hooks install codex", () => {
  const config = `# my Codex settings
model = "o3"   # the default model
approval_policy = "on-request"
instructions = """
[not a table]
notify = ["not", "this"]
"""

[model_providers.local]
name = "Local"
base_url = "http://127.0.0.1:1234/v1"

[[profiles.list]]
model = "small"
`;

  it("adds notify above the first table, keeping comments and every other line, respecting CODEX_HOME; a second run changes nothing", async () => {
    const codexHome = join(home.path, "codex-home");
    mkdirSync(codexHome);
    const file = join(codexHome, "config.toml");
    writeFileSync(file, config);

    const first = await herald(["hooks", "install", "codex"], { CODEX_HOME: codexHome });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^installed .*codex-home\/config\.toml \(backup: /);
    const merged = readFileSync(file, "utf8");
    expect(merged).toBe(config.replace("\n[model_providers.local]", '\nnotify = ["herald", "hook", "codex"]\n\n[model_providers.local]'));
    expect(parse(merged)).toEqual({ ...parse(config), notify: ["herald", "hook", "codex"] });
    expect(backups(codexHome).map((b) => readFileSync(join(codexHome, b), "utf8"))).toEqual([config]);
    expect(existsSync(join(home.path, ".codex"))).toBe(false);

    const second = await herald(["hooks", "install", "codex"], { CODEX_HOME: codexHome });
    expect(second).toMatchObject({ code: 0, stdout: `unchanged ${file} (already installed)\n` });
    expect(readFileSync(file, "utf8")).toBe(merged);
    expect(backups(codexHome)).toHaveLength(1);
  });

  it("creates ~/.codex/config.toml when there is none; --print shows the line", async () => {
    expect((await herald(["hooks", "install", "codex", "--print"])).stdout).toBe('notify = ["herald", "hook", "codex"]\n');
    expect((await herald(["hooks", "install", "codex"])).code).toBe(0);
    expect(readFileSync(join(home.path, ".codex", "config.toml"), "utf8")).toBe('notify = ["herald", "hook", "codex"]\n');
  });

  it("keeps another notify program unless --force, then replaces only that setting", async () => {
    const dir = join(home.path, ".codex");
    mkdirSync(dir);
    const theirs = `model = "o3"\nnotify = [\n  "python3",\n  "/home/me/notify.py", # mine\n]\n\n[tui]\nnotifications = true\n`;
    writeFileSync(join(dir, "config.toml"), theirs);
    const refused = await herald(["hooks", "install", "codex"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('already sets notify = ["python3","/home/me/notify.py"]');
    expect(readFileSync(join(dir, "config.toml"), "utf8")).toBe(theirs);
    expect(backups(dir)).toEqual([]);

    expect((await herald(["hooks", "install", "codex", "--force"])).code).toBe(0);
    expect(readFileSync(join(dir, "config.toml"), "utf8")).toBe(`model = "o3"\nnotify = ["herald", "hook", "codex"]\n\n[tui]\nnotifications = true\n`);
  });

  it("refuses TOML it cannot parse and leaves it as it was", async () => {
    const dir = join(home.path, ".codex");
    mkdirSync(dir);
    writeFileSync(join(dir, "config.toml"), "model = \n");
    const r = await herald(["hooks", "install", "codex"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config\.toml is not valid TOML/);
    expect(readFileSync(join(dir, "config.toml"), "utf8")).toBe("model = \n");
  });
});

describe("the Codex notify merge", () => {
  const ours = ["herald", "hook", "codex"];
  it("updates a Herald notify under another path, and appends to a file without tables", () => {
    expect(mergeCodexConfig("c", 'notify = ["/old/herald", "hook", "codex"]\n[a]\nb = 1\n', ours, false)).toBe(
      'notify = ["herald", "hook", "codex"]\n[a]\nb = 1\n',
    );
    expect(mergeCodexConfig("c", 'model = "x"', ours, false)).toBe('model = "x"\nnotify = ["herald", "hook", "codex"]');
    expect(mergeCodexConfig("c", "model = 'x'\r\n\r\n[a]\r\n", ours, false)).toBe('model = \'x\'\r\n\r\nnotify = ["herald", "hook", "codex"]\r\n\r\n[a]\r\n');
  });

  it("does not take a notify inside a table, or an array of tables inside a value, for a top-level one", () => {
    const text = 'matrix = [\n[1, 2],\n[3]\n]\n[profile]\nnotify = ["x"]\n';
    const merged = mergeCodexConfig("c", text, ours, false);
    expect(parse(merged)).toEqual({ ...parse(text), notify: ours });
  });
});

/** heraldRaw in another working directory. */
async function heraldRawIn(cwd: string, args: string[]) {
  const { spawn } = await import("node:child_process");
  const { heraldBin } = await import("@herald/testkit");
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(heraldBin, args, { cwd, env: { ...process.env, HOME: home.path }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
