// opencode: a file in opencode's auto-loaded plugins folder that loads Herald's plugin
// (integrations/opencode) from this checkout. User scope: $XDG_CONFIG_HOME/opencode/plugins
// (default ~/.config/opencode/plugins); project scope: .opencode/plugins. opencode.json(c) is left alone.
import { join } from "node:path";
import type { HarnessInstaller, InstallContext } from "./installer.ts";
import { adapterSource, ownedFile, quoted } from "./owned-file.ts";

export const opencodePluginSource = adapterSource("opencode/index.ts");

function target(context: InstallContext): string {
  if (context.scope === "project") return join(context.cwd, ".opencode", "plugins", "herald.ts");
  const configHome = context.env.XDG_CONFIG_HOME?.trim() || join(context.home, ".config");
  return join(configHome, "opencode", "plugins", "herald.ts");
}

const content = [
  "// Herald's opencode plugin, installed by `herald hooks install opencode`: reports each finished",
  "// exchange when a session goes idle (HERALD_URL, HERALD_PRODUCER_KEY, HERALD_PERSON_ID).",
  `export { HeraldPlugin } from ${quoted(opencodePluginSource)};`,
  "",
].join("\n");

export const opencode: HarnessInstaller = {
  harness: "opencode",
  scopes: ["user", "project"],
  snippet: (context) => `// ${target(context)}\n${content}`,
  changes: (context) => [ownedFile(target(context), content, context.force)],
};
