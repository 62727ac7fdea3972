// What an exchange is in a Pi session: the current branch's terminal assistant entry and the
// user prompt before it. Pure: reads the entries Pi's session manager returns.

export interface MessageEntryLike {
  type: string;
  id: string;
  message?: { role?: string; content?: unknown; stopReason?: string } | undefined;
}

export interface AssistantSource {
  /** The assistant entry's id: the native completion id. */
  entryId: string;
  userText: string;
  assistantText: string;
}

/** Finished answers only: an error (Pi may retry it as a new entry) or an abort is no exchange. */
const FINISHED = new Set(["stop", "length"]);

/** Text blocks of a message, joined; thinking and tool calls are not the answer. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((part): part is { type: "text"; text: string } => !!part && typeof part === "object" && part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}

/**
 * The branch's terminal message when it is a finished assistant answer, with the latest user
 * prompt before it. Entries that are not messages (names, labels, custom state) do not end a
 * conversation, so they are skipped.
 */
export function terminalAssistant(branch: readonly MessageEntryLike[]): AssistantSource | null {
  let index = branch.length - 1;
  while (index >= 0 && branch[index]!.type !== "message") index--;
  const entry = branch[index];
  const message = entry?.message;
  if (!entry || message?.role !== "assistant" || !FINISHED.has(message.stopReason ?? "")) return null;
  const assistantText = textOf(message.content).trim();
  let userText = "";
  for (let i = index - 1; i >= 0; i--) {
    const candidate = branch[i]!;
    if (candidate.type === "message" && candidate.message?.role === "user") {
      userText = textOf(candidate.message.content).trim();
      break;
    }
  }
  return { entryId: entry.id, userText, assistantText };
}
