// `herald hooks install pi|opencode` (server/src/cli/hooks-install): one file of Herald's own in
// the harness's auto-loaded folder (user or project scope) that loads the adapter from this
// checkout; idempotent, never overwriting another file unless forced, the user's settings
// untouched. The harness tests load the installed files for real.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTempDir, type TempDir } from "@herald/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InstallError } from "@herald/server/hooks-install/installer";
import { opencode, opencodePluginSource } from "@herald/server/hooks-install/opencode";
import { pi, piExtensionSource } from "@herald/server/hooks-install/pi";
import { applyInstall } from "./support/apply-install.ts";

describe("installing the adapters", () => {
  let home: TempDir;
  beforeEach(() => {
    home = createTempDir("herald-install-");
  });
  afterEach(() => home.remove());

  it("pi: a file in the agent folder's extensions that loads the extension from this checkout", () => {
    const agentDir = join(home.path, "custom-agent");
    mkdirSync(agentDir);
    writeFileSync(join(agentDir, "settings.json"), '{ "theme": "dark" }\n');
    const context = { home: home.path, env: { PI_CODING_AGENT_DIR: agentDir } };
    const [path] = applyInstall(pi, context);
    expect(path).toBe(join(agentDir, "extensions", "herald.ts"));
    const text = readFileSync(path!, "utf8");
    expect(text).toContain(`import herald from ${JSON.stringify(piExtensionSource)};`);
    expect(text).toContain("export default herald;");
    expect(text).not.toContain("HERALD_BIN");
    expect(piExtensionSource).toBe(join(import.meta.dirname, "..", "pi", "index.ts"));
    expect(existsSync(piExtensionSource)).toBe(true);
    // Pi's own settings are not touched, and a second install changes nothing.
    expect(readFileSync(join(agentDir, "settings.json"), "utf8")).toBe('{ "theme": "dark" }\n');
    expect(applyInstall(pi, context)).toEqual([]);
  });

  it("pi: the default agent folder, the project scope, and a named herald command", () => {
    expect(applyInstall(pi, { home: home.path })).toEqual([join(home.path, ".pi", "agent", "extensions", "herald.ts")]);
    const project = join(home.path, "shop");
    const [path] = applyInstall(pi, { home: home.path, cwd: project, scope: "project", command: "/opt/herald/bin/herald" });
    expect(path).toBe(join(project, ".pi", "extensions", "herald.ts"));
    expect(readFileSync(path!, "utf8")).toContain('process.env.HERALD_BIN ??= "/opt/herald/bin/herald";');
  });

  it("opencode: a file in the config folder's plugins that re-exports the plugin, opencode.jsonc untouched", () => {
    const configHome = join(home.path, "xdg");
    mkdirSync(join(configHome, "opencode"), { recursive: true });
    const settings = '{\n  // mine\n  "$schema": "https://opencode.ai/config.json"\n}\n';
    writeFileSync(join(configHome, "opencode", "opencode.jsonc"), settings);
    const context = { home: home.path, env: { XDG_CONFIG_HOME: configHome } };
    const [path] = applyInstall(opencode, context);
    expect(path).toBe(join(configHome, "opencode", "plugins", "herald.ts"));
    expect(opencodePluginSource).toBe(join(import.meta.dirname, "..", "opencode", "index.ts"));
    expect(readFileSync(path!, "utf8")).toContain(`export { HeraldPlugin } from ${JSON.stringify(opencodePluginSource)};`);
    expect(readFileSync(join(configHome, "opencode", "opencode.jsonc"), "utf8")).toBe(settings);
    expect(applyInstall(opencode, context)).toEqual([]);
    expect(applyInstall(opencode, { home: home.path, cwd: join(home.path, "billing"), scope: "project" })).toEqual([
      join(home.path, "billing", ".opencode", "plugins", "herald.ts"),
    ]);
  });

  it("refuses to replace a file of that name with other content unless forced, writing nothing", () => {
    const path = join(home.path, ".config", "opencode", "plugins", "herald.ts");
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, "export const Mine = async () => ({});\n");
    expect(() => applyInstall(opencode, { home: home.path })).toThrow(InstallError);
    expect(() => applyInstall(opencode, { home: home.path })).toThrow(/exists with other content.*--force/);
    expect(readFileSync(path, "utf8")).toBe("export const Mine = async () => ({});\n");
    expect(applyInstall(opencode, { home: home.path, force: true })).toEqual([path]);
    expect(readFileSync(path, "utf8")).toContain("HeraldPlugin");
  });

  it("--print shows where the file goes and what it says", () => {
    const snippet = pi.snippet({ scope: "user", home: "/home/ada", cwd: "/home/ada/shop", env: {}, command: "herald", force: false, approvals: false });
    expect(snippet.split("\n")[0]).toBe("// /home/ada/.pi/agent/extensions/herald.ts");
    expect(snippet).toContain("export default herald;");
    expect(
      opencode
        .snippet({ scope: "project", home: "/home/ada", cwd: "/home/ada/billing", env: {}, command: "herald", force: false, approvals: false })
        .split("\n")[0],
    ).toBe("// /home/ada/billing/.opencode/plugins/herald.ts");
  });
});
