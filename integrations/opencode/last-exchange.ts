// What an exchange is in an opencode session: its last finished assistant message and the user
// message it answers. Pure: reads what `client.session.messages` returns.

export interface MessageWithParts {
  info: {
    id: string;
    role: string;
    parentID?: string;
    error?: unknown;
    summary?: unknown;
    time?: { created?: number; completed?: number };
    path?: { cwd?: string };
  };
  parts: { type: string; text?: string; synthetic?: boolean; ignored?: boolean }[];
}

export interface Exchange {
  completionId: string;
  cwd: string;
  userText: string;
  assistantText: string;
}

/** The text a person wrote or read: text parts, without ones opencode added or set aside. */
export function textOf(message: MessageWithParts): string {
  return message.parts
    .filter((part) => part.type === "text" && typeof part.text === "string" && !part.synthetic && !part.ignored)
    .map((part) => part.text)
    .join("\n")
    .trim();
}

/**
 * The session's last assistant message when it finished normally (not failed, aborted, or a
 * compaction summary), with the user message it answers. A session whose last answer failed has
 * no exchange to report.
 */
export function lastExchange(messages: readonly MessageWithParts[]): Exchange | null {
  // The answer must be the last message: a prompt after it has not been answered yet.
  const index = messages.length - 1;
  const answer = messages[index];
  if (!answer || answer.info.role !== "assistant" || answer.info.error || answer.info.summary || !answer.info.time?.completed) return null;
  const prompt =
    messages.find((m) => m.info.role === "user" && m.info.id === answer.info.parentID) ?? messages.slice(0, index).findLast((m) => m.info.role === "user");
  return {
    completionId: answer.info.id,
    cwd: answer.info.path?.cwd ?? "",
    userText: prompt ? textOf(prompt) : "",
    assistantText: textOf(answer),
  };
}
