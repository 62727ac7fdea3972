// Ctrl/Cmd+Z takes back the last dismissal or clear-all, except while typing (the field's own
// undo). Used by the dashboard's layout and by <herald-inbox>.
import type { UndoQueue } from "./undo.svelte.ts";

export function undoShortcut(undo: UndoQueue): (event: KeyboardEvent) => void {
  return (event) => {
    if (event.key.toLowerCase() !== "z" || !(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey) return;
    // Inside a shadow root the event's target is the host: the real target is the path's first element.
    const target = (event.composedPath()[0] ?? event.target) as HTMLElement | null;
    if (target?.closest?.("input, textarea, select, [contenteditable]")) return;
    if (undo.undo()) event.preventDefault();
  };
}
