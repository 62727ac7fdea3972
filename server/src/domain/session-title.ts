// How a notification about an agent session names it: by the session's label (source document 001:
// the label names the session everywhere), or the project of its working directory until it has
// one. Shared by the completion notification (the server) and the hooks' own notifications
// (attention, approvals), so every notification of one session carries the same name. Pure.

const TITLE_NAME_CHARS = 120;

/** The project part of a working directory: its last path component ("" for a root). */
export function projectOf(cwd: string): string {
  const parts = cwd.split(/[\\/]+/).filter((p) => p !== "");
  return parts.at(-1) ?? "";
}

/** "<label or project> · <harness> <what>", e.g. "Fix login redirect · claude-code finished". */
export function sessionTitle(session: { harness: string; label: string; cwd: string }, what: string): string {
  const points = Array.from((session.label || projectOf(session.cwd) || session.harness).trim());
  const name = points.slice(0, TITLE_NAME_CHARS).join("");
  return `${name} · ${session.harness} ${what}`;
}
