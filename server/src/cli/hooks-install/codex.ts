// Codex: `notify = ["herald", "hook", "codex"]` at the top of config.toml (in CODEX_HOME, default
// ~/.codex). The line is added or replaced as text, so the rest of the file stays as written,
// and the result is parsed again and compared with the original before it may be written. Codex
// runs one notify program: another one already set is replaced only with --force.
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { parse } from "smol-toml";
import { type FileChange, type HarnessInstaller, type InstallContext, InstallError } from "./installer.ts";
import { topLevelLayout } from "./toml-top-level.ts";

const HERALD_NOTIFY = /(^|\/)herald(\.js)?$/;

function notifyOf(context: InstallContext): string[] {
  return [context.command, "hook", "codex"];
}

function notifyLine(notify: readonly string[]): string {
  return `notify = [${notify.map((word) => JSON.stringify(word)).join(", ")}]`;
}

function configPath(context: InstallContext): string {
  const codexHome = context.env.CODEX_HOME?.trim() || join(context.home, ".codex");
  return join(codexHome, "config.toml");
}

function parseToml(path: string, text: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new InstallError(`${path} is not valid TOML (${(error as Error).message.split("\n")[0]}); fix it, then run again`);
  }
}

export function mergeCodexConfig(path: string, current: string | null, notify: readonly string[], force: boolean): string {
  const line = notifyLine(notify);
  if (current === null || current.trim() === "") return `${line}\n`;
  const before = parseToml(path, current);
  const existing = before.notify;
  if (isDeepStrictEqual(existing, notify)) return current;
  const ours =
    Array.isArray(existing) &&
    existing.length === 3 &&
    typeof existing[0] === "string" &&
    HERALD_NOTIFY.test(existing[0]) &&
    existing[1] === "hook" &&
    existing[2] === "codex";
  if (existing !== undefined && !ours && !force) {
    throw new InstallError(
      `${path} already sets notify = ${JSON.stringify(existing)}, and Codex runs only one notify program; run again with --force to replace it`,
    );
  }
  const eol = current.includes("\r\n") ? "\r\n" : "\n";
  const lines = current.split(/\r?\n/);
  const layout = topLevelLayout(lines, "notify");
  if (layout.key) lines.splice(layout.key.start, layout.key.end - layout.key.start, line);
  else if (layout.firstHeader === lines.length) lines.splice(lines.at(-1) === "" ? lines.length - 1 : lines.length, 0, line);
  else lines.splice(layout.firstHeader, 0, line, "");
  const merged = lines.join(eol);
  // The text edit must have changed exactly the one setting.
  const after = parseToml(path, merged);
  const { notify: _old, ...restBefore } = before;
  const { notify: added, ...restAfter } = after;
  if (!isDeepStrictEqual(added, [...notify]) || !isDeepStrictEqual(restAfter, restBefore)) {
    throw new InstallError(`could not add notify to ${path} without changing anything else; add this line above its first [table] by hand: ${line}`);
  }
  return merged;
}

export const codex: HarnessInstaller = {
  harness: "codex",
  scopes: ["user"],
  snippet: (context) => `${notifyLine(notifyOf(context))}\n`,
  changes(context): FileChange[] {
    const path = configPath(context);
    return [{ path, merge: (current) => mergeCodexConfig(path, current, notifyOf(context), context.force) }];
  },
};
