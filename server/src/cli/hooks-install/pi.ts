// Pi: a file in Pi's auto-discovered extensions folder that loads Herald's extension
// (integrations/pi) from this checkout. User scope: <agent dir>/extensions (PI_CODING_AGENT_DIR,
// default ~/.pi/agent); project scope: .pi/extensions. Pi's settings.json is left alone.
import { join } from "node:path";
import type { HarnessInstaller, InstallContext } from "./installer.ts";
import { adapterSource, ownedFile, quoted } from "./owned-file.ts";

export const piExtensionSource = adapterSource("pi/index.ts");

function target(context: InstallContext): string {
  if (context.scope === "project") return join(context.cwd, ".pi", "extensions", "herald.ts");
  const agentDir = context.env.PI_CODING_AGENT_DIR?.trim() || join(context.home, ".pi", "agent");
  return join(agentDir, "extensions", "herald.ts");
}

function content(context: InstallContext): string {
  const lines = [
    "// Herald's Pi extension, installed by `herald hooks install pi`: reports each finished exchange",
    "// (HERALD_URL, HERALD_PRODUCER_KEY, HERALD_PERSON_ID) and titles the session with its shared label.",
    `import herald from ${quoted(piExtensionSource)};`,
  ];
  // The extension reads HERALD_BIN when Pi calls it, after this module ran.
  if (context.command !== "herald") lines.push("", `process.env.HERALD_BIN ??= ${quoted(context.command)};`);
  lines.push("", "export default herald;", "");
  return lines.join("\n");
}

export const pi: HarnessInstaller = {
  harness: "pi",
  scopes: ["user", "project"],
  snippet: (context) => `// ${target(context)}\n${content(context)}`,
  changes: (context) => [ownedFile(target(context), content(context), context.force)],
};
