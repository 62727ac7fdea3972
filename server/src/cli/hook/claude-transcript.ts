// The end of a Claude Code transcript (a JSONL file, one entry per line, appended as the session
// runs): the latest turn's user prompt and the assistant entries after it. Read backwards in
// chunks and bounded, since a long session's transcript runs to many megabytes and single lines
// (tool results, prompt snapshots) to hundreds of kilobytes.
import { constants } from "node:fs";
import { open } from "node:fs/promises";

/** How much of the transcript's end a hook reads at most. */
export const TRANSCRIPT_TAIL_BYTES = 4 * 1024 * 1024;
const CHUNK_BYTES = 256 * 1024;

export interface TranscriptTurn {
  /** The `uuid` of the last main-thread assistant entry after the latest prompt; null when none is written yet. */
  completionId: string | null;
  /** The turn's last assistant text (its answer; earlier texts are steps between tool calls). */
  assistantText: string;
  /** The text of the latest prompt. */
  userText: string;
  /**
   * The latest prompt was not the person's but Claude Code's own (a finished background task, a
   * scheduled wake-up): the turn it started is internal to the session.
   */
  internal: boolean;
}

/** Who may author a prompt (the entry's promptSource); only these are the person. */
const PERSON_SOURCES = new Set(["user", "sdk"]);

interface Entry {
  type?: unknown;
  uuid?: unknown;
  isSidechain?: unknown;
  isMeta?: unknown;
  promptSource?: unknown;
  promptId?: unknown;
  message?: { role?: unknown; content?: unknown };
}

export interface TurnQuery {
  /**
   * The turn's prompt id (a hook's `prompt_id`): that turn rather than the latest, so a Stop
   * delivered again after later turns still names its own. Without it, the latest turn.
   */
  promptId?: string;
  signal?: AbortSignal;
  /** How much of the end to read; default TRANSCRIPT_TAIL_BYTES. */
  limitBytes?: number;
}

const NO_PROMPT: Prompt = { text: "", internal: false, promptId: null };

/** A turn of the transcript at `path` (see TurnQuery), from a bounded read of its end. */
export async function readTurn(path: string, query: TurnQuery = {}): Promise<TranscriptTurn> {
  const { signal, promptId } = query;
  const limitBytes = query.limitBytes ?? TRANSCRIPT_TAIL_BYTES;
  // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, in a thread the
  // process cannot leave while it waits. Only a regular file is read at all.
  const file = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = await file.stat();
    if (!stats.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: "ENOTFILE" });
    const { size } = stats;
    const floor = Math.max(0, size - limitBytes);
    let position = size;
    let carry = Buffer.alloc(0); // the start of a line whose beginning is in an earlier chunk
    const assistant: { uuid: string; text: string }[] = [];
    while (position > floor) {
      signal?.throwIfAborted();
      const length = Math.min(CHUNK_BYTES, position - floor);
      position -= length;
      const chunk = Buffer.alloc(length);
      await file.read(chunk, 0, length, position);
      const joined = Buffer.concat([chunk, carry]);
      // Lines are split on the newline byte, never inside a UTF-8 sequence.
      let end = joined.length;
      for (let i = joined.length - 1; i >= 0; i--) {
        if (joined[i] !== 0x0a) continue;
        const prompt = visit(joined.subarray(i + 1, end), assistant);
        end = i;
        if (prompt === null) continue;
        if (promptId === undefined || prompt.promptId === promptId) return turnOf(prompt, assistant);
        assistant.length = 0; // a later turn's answers
      }
      carry = joined.subarray(0, end);
    }
    // The file's first line, when it is within the bound.
    if (floor === 0 && carry.length > 0) {
      const prompt = visit(carry, assistant);
      if (prompt !== null && (promptId === undefined || prompt.promptId === promptId)) return turnOf(prompt, assistant);
    }
    // The asked-for turn is not within the bound: nothing here is known to be its.
    return promptId === undefined ? turnOf(NO_PROMPT, assistant) : turnOf(NO_PROMPT, []);
  } finally {
    await file.close();
  }
}

interface Prompt {
  text: string;
  internal: boolean;
  promptId: string | null;
}

/** Collects a main-thread assistant entry; returns the prompt a line holds, else null. */
function visit(line: Buffer, assistant: { uuid: string; text: string }[]): Prompt | null {
  // Most lines are neither (attachments, snapshots, metadata): skip them without parsing.
  const text = line.toString("utf8");
  if (!text.includes('"type":"user"') && !text.includes('"type":"assistant"')) return null;
  let entry: Entry;
  try {
    entry = JSON.parse(text) as Entry;
  } catch {
    return null; // a torn or foreign line
  }
  if (entry.isSidechain === true || entry.isMeta === true) return null;
  if (entry.type === "assistant" && typeof entry.uuid === "string") {
    assistant.unshift({ uuid: entry.uuid, text: textOf(entry.message?.content) });
    return null;
  }
  if (entry.type === "user") {
    // A tool's result comes back as a user entry too; only typed text is the person's prompt.
    const content = entry.message?.content;
    if (Array.isArray(content) && content.some((block) => (block as { type?: unknown })?.type === "tool_result")) return null;
    const prompt = textOf(content);
    if (prompt.trim() === "") return null;
    // Older versions write no promptSource: every prompt was the person's.
    return {
      text: prompt,
      internal: typeof entry.promptSource === "string" && !PERSON_SOURCES.has(entry.promptSource),
      promptId: typeof entry.promptId === "string" ? entry.promptId : null,
    };
  }
  return null;
}

function turnOf(prompt: Prompt, assistant: { uuid: string; text: string }[]): TranscriptTurn {
  return {
    userText: prompt.text,
    internal: prompt.internal,
    completionId: assistant.at(-1)?.uuid ?? null,
    assistantText: assistant.findLast((a) => a.text.trim() !== "")?.text ?? "",
  };
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(
      (block): block is { type: "text"; text: string } =>
        (block as { type?: unknown })?.type === "text" && typeof (block as { text?: unknown }).text === "string",
    )
    .map((block) => block.text)
    .join("\n");
}
