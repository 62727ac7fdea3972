// `herald hook codex '<json>'`: Codex's `notify` program. Codex appends one JSON argument; of
// its types only `agent-turn-complete` is a completed exchange (`thread-id` the session, `turn-id`
// the completion, `input-messages` the person's messages of the session so far, oldest first,
// `last-assistant-message` the answer). The turn's user text is the last of those messages: the
// rest are earlier turns', and a label read from them would keep describing the first request.
// Every other type is ignored.
import type { Exchange } from "./report.ts";

export const HARNESS = "codex";

export type CodexHookAction = { kind: "ignore"; reason: string } | { kind: "exchange"; exchange: Exchange };

/** What a notify payload asks for; one that is not Codex's throws naming the field. */
export function codexHookAction(payload: unknown, fallbackCwd: string): CodexHookAction {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) throw new Error("the notify argument is not a JSON object");
  const p = payload as Record<string, unknown>;
  if (typeof p.type !== "string") throw new Error("the notify argument has no type");
  if (p.type !== "agent-turn-complete") return { kind: "ignore", reason: `${p.type} is not reported` };
  const sessionId = p["thread-id"];
  if (typeof sessionId !== "string" || sessionId === "") throw new Error("the notify argument has no thread-id");
  const turnId = p["turn-id"];
  const inputs = Array.isArray(p["input-messages"]) ? p["input-messages"].filter((m): m is string => typeof m === "string") : [];
  const answer = p["last-assistant-message"];
  return {
    kind: "exchange",
    exchange: {
      harness: HARNESS,
      sessionId,
      completionId: typeof turnId === "string" && turnId !== "" ? turnId : null,
      cwd: typeof p.cwd === "string" && p.cwd !== "" ? p.cwd : fallbackCwd,
      userText: inputs.at(-1) ?? "",
      assistantText: typeof answer === "string" ? answer : "",
    },
  };
}
