// Claude Code: command hooks for Stop and Notification in settings.json (`~/.claude/settings.json`,
// or `.claude/settings.json` of the project with --scope project), and with --approvals for
// PermissionRequest, with a timeout above the hook's wait for the person (50 s by default). The merge keeps every other
// setting and hook; a Herald hook already there (under another command path) is updated in place.
import { join } from "node:path";
import { type FileChange, type HarnessInstaller, type InstallContext, InstallError, shellWord } from "./installer.ts";

const EVENTS = ["Stop", "Notification"] as const;
/** Seconds Claude Code waits for the hook; the hook itself gives up after 2 s. */
const HOOK_TIMEOUT_S = 10;
/** Seconds Claude Code waits for a permission request's hook: the person's 50 s and the asking. */
const APPROVAL_TIMEOUT_S = 60;

function eventsOf(approvals: boolean): { event: string; timeout: number }[] {
  const events = EVENTS.map((event) => ({ event, timeout: HOOK_TIMEOUT_S }));
  return approvals ? [...events, { event: "PermissionRequest", timeout: APPROVAL_TIMEOUT_S }] : events;
}
const HERALD_HOOK = /(^|[\s/'"])herald(\.js)?'?\s+hook\s+claude-code\s*$/;

type Json = Record<string, unknown>;

function hookCommand(context: InstallContext): string {
  return `${shellWord(context.command)} hook claude-code`;
}

function settingsPath(context: InstallContext): string {
  return context.scope === "project" ? join(context.cwd, ".claude", "settings.json") : join(context.home, ".claude", "settings.json");
}

function hookEntry(command: string, timeout = HOOK_TIMEOUT_S) {
  return { type: "command", command, timeout };
}

export function mergeClaudeSettings(path: string, current: string | null, command: string, events = eventsOf(false)): string {
  let settings: Json;
  try {
    settings = current === null || current.trim() === "" ? {} : (JSON.parse(current) as Json);
  } catch (error) {
    throw new InstallError(`${path} is not valid JSON (${(error as Error).message}); fix it, then run again`);
  }
  if (!isObject(settings)) throw new InstallError(`${path} is not a JSON object`);
  const hooks = settings.hooks ?? {};
  if (!isObject(hooks)) throw new InstallError(`${path}: "hooks" is not an object`);
  let changed = false;
  for (const { event, timeout } of events) {
    const groups = hooks[event] ?? [];
    if (!Array.isArray(groups)) throw new InstallError(`${path}: "hooks.${event}" is not an array`);
    const ours = groups
      .flatMap((group: unknown) => (isObject(group) && Array.isArray(group.hooks) ? group.hooks : []))
      .filter((hook: unknown): hook is Json => isObject(hook) && typeof hook.command === "string" && HERALD_HOOK.test(hook.command));
    if (ours.length === 0) {
      hooks[event] = [...groups, { hooks: [hookEntry(command, timeout)] }];
      changed = true;
    }
    for (const hook of ours) {
      if (hook.command === command) continue;
      hook.command = command;
      changed = true;
    }
  }
  if (!changed) return current!;
  return `${JSON.stringify({ ...settings, hooks }, null, 2)}\n`;
}

export const claudeCode: HarnessInstaller = {
  harness: "claude-code",
  scopes: ["user", "project"],
  approvals: true,
  snippet(context) {
    const hooks = Object.fromEntries(eventsOf(context.approvals).map(({ event, timeout }) => [event, [{ hooks: [hookEntry(hookCommand(context), timeout)] }]]));
    return `${JSON.stringify({ hooks }, null, 2)}\n`;
  },
  changes(context): FileChange[] {
    const path = settingsPath(context);
    return [{ path, merge: (current) => mergeClaudeSettings(path, current, hookCommand(context), eventsOf(context.approvals)) }];
  },
};

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
