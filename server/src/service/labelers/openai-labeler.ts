// Names sessions with a model behind an OpenAI-compatible chat-completions endpoint (OpenAI,
// a local Ollama or llama.cpp server, a gateway). Bounded in time and in answer size.
import type { LabelAnswer } from "../../domain/session-labels.ts";
import type { Labeler, LabelRequest } from "./labeler.ts";
import { readAtMost } from "../../util/read-at-most.ts";

export interface OpenAILabelerOptions {
  /** The API base (e.g. http://127.0.0.1:11434/v1) or the full /chat/completions URL. */
  url: string;
  model: string;
  key?: string | undefined;
  timeoutMs: number;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

const instructions = [
  "You name coding-agent sessions so a person can tell them apart in notifications.",
  "Reply with a label of three or four plain words (at most 60 bytes) saying what the session works on,",
  "or with exactly KEEP when the current label still fits. Reply with nothing else: no quotes, no punctuation.",
].join(" ");

export class OpenAILabeler implements Labeler {
  readonly name = "openai-compatible";
  private readonly endpoint: string;

  constructor(private readonly options: OpenAILabelerOptions) {
    const base = options.url.replace(/\/+$/, "");
    this.endpoint = base.endsWith("/chat/completions") ? base : `${base}/chat/completions`;
  }

  async label(request: LabelRequest): Promise<LabelAnswer> {
    const { material } = request;
    const prompt = [
      `Current label: ${request.currentLabel || "(none)"}`,
      `Project: ${request.project || "(unknown)"}`,
      "",
      `User:\n${material.user}`,
      "",
      `Assistant:\n${material.assistant}`,
    ].join("\n");
    // One deadline for connecting, waiting and reading the body.
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const response = await fetch(this.endpoint, {
      method: "POST",
      signal,
      headers: {
        "content-type": "application/json",
        ...(this.options.key ? { authorization: `Bearer ${this.options.key}` } : {}),
      },
      body: JSON.stringify({
        model: this.options.model,
        temperature: 0,
        max_tokens: 24,
        messages: [
          { role: "system", content: instructions },
          { role: "user", content: prompt },
        ],
      }),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`labeler answered HTTP ${response.status}`);
    }
    const content = contentOf(await readBounded(response));
    const answer = content
      .trim()
      .replace(/^["'`“”‘’]+|["'`“”‘’.!]+$/gu, "")
      .trim();
    if (/^keep$/i.test(answer)) return { kind: "keep" };
    return { kind: "label", text: answer };
  }
}

async function readBounded(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const bytes = await readAtMost(reader, MAX_RESPONSE_BYTES);
  if (!bytes) {
    await reader.cancel();
    throw new Error(`labeler answer exceeds ${MAX_RESPONSE_BYTES} bytes`);
  }
  return Buffer.from(bytes).toString("utf8");
}

function contentOf(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new Error("labeler answer is not JSON");
  }
  const content = (parsed as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new Error("labeler answer has no choices[0].message.content");
  return content;
}
