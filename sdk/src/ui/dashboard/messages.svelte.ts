// What the page tells the person: visible notices about their own actions, and the polite live
// region that announces new notifications and conflicts to screen readers.
import { isUnseen, type LiveState } from "@herald/sdk";
import { t } from "../i18n/index.ts";

export interface Notice {
  id: number;
  text: string;
  tone: "info" | "error";
}

const MAX_NOTICES = 4;
const NOTICE_MS = { info: 6_000, error: 10_000 };

export class Messages {
  notices = $state<Notice[]>([]);
  /** Text of the polite live region. */
  announcement = $state("");
  private lastId = 0;

  /** A visible message (role=status, so screen readers hear it too). */
  notify(text: string, tone: Notice["tone"] = "info"): number {
    const notice = { id: ++this.lastId, text, tone };
    this.notices = [...this.notices, notice].slice(-MAX_NOTICES);
    setTimeout(() => this.close(notice.id), NOTICE_MS[tone]);
    return notice.id;
  }

  close(id: number): void {
    this.notices = this.notices.filter((n) => n.id !== id);
  }

  /** Text for the polite live region; repeated text is announced again. */
  announce(text: string): void {
    this.announcement = "";
    queueMicrotask(() => (this.announcement = text));
  }
}

/** Announces notifications that appear after the first live snapshot (not the ones already there). */
export function announceArrivals(messages: Messages): (state: LiveState) => void {
  let known: Set<string> | null = null;
  return (state) => {
    if (known === null) {
      if (state.connection === "live") known = new Set(state.items.map((n) => n.id));
      return;
    }
    const seen = known;
    const fresh = state.items.filter((n) => !seen.has(n.id));
    for (const n of fresh) seen.add(n.id);
    const unseen = fresh.filter(isUnseen);
    const [newest] = unseen;
    if (!newest) return;
    messages.announce(t.announce(unseen.length, newest.display.title));
  };
}
