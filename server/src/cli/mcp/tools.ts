// The tools `herald mcp` offers, with their input schemas. Every failure (configuration, a
// refused input naming its field, Herald unreachable) is a tool error the agent can read; nothing
// here throws past a tool call.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ProducerFailure } from "../producer-client.ts";
import { type AskOutcome, awaitAnswer, publishQuestion } from "./ask.ts";
import { plainAgentText } from "../../domain/agent-text.ts";
import { patchByKey, publish, resolve } from "./operations.ts";
import { type McpSettings, settingsFromEnv } from "./settings.ts";
import { keepingAlive, type ToolExtra } from "./waiting.ts";

/** The longest a call may wait for an answer; await_answer waits again. */
export const MAX_WAIT_SECONDS = 3_600;
/** Below the shortest common client default (Codex's 60 s per tool call). */
export const DEFAULT_WAIT_SECONDS = 45;

const severity = z.enum(["info", "success", "warning", "error"]);
const timeoutSeconds = z
  .number()
  .int()
  .min(0)
  .max(MAX_WAIT_SECONDS)
  .default(DEFAULT_WAIT_SECONDS)
  .describe(`How long to wait for the answer, 0-${MAX_WAIT_SECONDS} s (default ${DEFAULT_WAIT_SECONDS}); after it the result is a handle for await_answer.`);
const finished = ["succeeded", "failed", "cancelled"] as const;

const formField = z.object({
  name: z.string().describe("1-64 letters, digits or _: the key of this field in the answer's values"),
  label: z.string(),
  type: z.enum(["text", "textarea", "number", "boolean", "select"]),
  required: z.boolean().optional(),
  options: z.array(z.string()).optional().describe("select only: the values to choose from"),
  placeholder: z.string().optional(),
  maxLength: z.number().int().optional(),
});

/**
 * Claude Code (2.1) defers an MCP server's tools behind its tool search by default and loads a
 * deferred tool only when the model searches for it, so Herald's tools went unused unless
 * ENABLE_TOOL_SEARCH=false. A tool listed with `anthropic/alwaysLoad` is always in the prompt;
 * the search hint helps where a client searches anyway. Other clients ignore both.
 */
const claudeMeta = (searchHint: string) => ({ _meta: { "anthropic/alwaysLoad": true, "anthropic/searchHint": searchHint } });

const text = (value: unknown): CallToolResult => ({ content: [{ type: "text", text: JSON.stringify(value) }] });
const failure = (message: string): CallToolResult => ({ content: [{ type: "text", text: message }], isError: true });

/** Runs a tool with the settings, turning every failure into a tool error. */
function tool<A>(run: (settings: McpSettings, args: A, extra: ToolExtra) => Promise<unknown>) {
  return async (args: A, extra: ToolExtra): Promise<CallToolResult> => {
    try {
      return text(await run(settingsFromEnv(), args, extra));
    } catch (error) {
      if (error instanceof ProducerFailure) return failure(error.message);
      return failure(`herald mcp: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}

const answerText = (outcome: AskOutcome) =>
  outcome.status === "pending" ? { ...outcome, note: "No answer yet; the question stays open. Call await_answer with this handle to wait again." } : outcome;

export function registerTools(server: McpServer): void {
  server.registerTool(
    "notify",
    {
      ...claudeMeta("notify tell the person message alert"),
      title: "Notify the person",
      description:
        "Send the person a notification. Give a key to revise the same notification in place later (a repeated notify with the key changes only the fields it gives); a url adds an Open follow-up.",
      inputSchema: {
        title: z.string().describe("one line, at most 200 characters"),
        body: z.string().optional(),
        severity: severity.optional().describe("info (the default for a new notification), success, warning or error"),
        key: z.string().optional().describe("the same key again updates this notification instead of adding one; fields left out keep their value"),
        url: z.string().optional().describe("an absolute http(s) URL the person can open"),
      },
    },
    tool(async (settings, args: { title: string; body?: string; severity?: string; key?: string; url?: string }) => {
      const given = {
        title: plainAgentText(args.title),
        ...(args.body === undefined ? {} : { body: plainAgentText(args.body) }),
        ...(args.severity === undefined ? {} : { severity: args.severity.toUpperCase() }),
        ...(args.url === undefined ? {} : { actions: [{ kind: "OPEN_URL", id: "open", label: "Open", url: args.url }] }),
      };
      // A repeated key patches: what the agent left out keeps its value.
      if (args.key !== undefined) {
        const patched = await patchByKey(settings.connection, { scope: "PERSON", personId: settings.personId, key: args.key }, given);
        if (patched) return patched;
      }
      return publish(settings.connection, {
        scope: "PERSON",
        personId: settings.personId,
        key: args.key ?? `notify-${randomUUID()}`,
        severity: "INFO",
        source: { plugin: settings.plugin },
        ...given,
      });
    }),
  );

  server.registerTool(
    "progress",
    {
      ...claudeMeta("report task progress to the person"),
      title: "Report progress",
      description:
        "Report a long-running task's progress in one notification, updated in place per key. A finished state (succeeded, failed, cancelled) resolves it.",
      inputSchema: {
        key: z.string().describe("names the task; every report with this key updates the same notification"),
        title: z.string(),
        state: z.enum(["running", ...finished]).default("running"),
        phase: z.string().optional().describe("what the task is doing now, e.g. 'running tests'"),
        percent: z.number().min(0).max(100).optional(),
      },
    },
    tool(async (settings, args: { key: string; title: string; state: string; phase?: string; percent?: number }) => {
      const done = (finished as readonly string[]).includes(args.state);
      const percent = args.percent === undefined ? null : Math.round(args.percent);
      const body = [args.phase, percent === null ? null : `${percent}%`].filter(Boolean).join(" · ") || null;
      // The key is the operation's id: reports of one task always pass the operation guard.
      const published = await publish(settings.connection, {
        scope: "PERSON",
        personId: settings.personId,
        key: args.key,
        title: args.title,
        body,
        severity: args.state === "failed" ? "ERROR" : args.state === "succeeded" ? "SUCCESS" : "INFO",
        source: { plugin: settings.plugin },
        operation: { id: args.key, type: "agent-task", state: args.state, phase: args.phase ?? null },
        data: { percent },
      });
      return done ? await resolve(settings.connection, published.id, { operationId: args.key }) : published;
    }),
  );

  server.registerTool(
    "ask",
    {
      ...claudeMeta("ask the person a question approval permission confirm"),
      title: "Ask the person",
      description:
        "Ask the person a question and wait for the answer: either choices (up to 5 buttons) or a small form (fields). Returns the answer, or after timeoutSeconds a handle for await_answer (the question stays open and an answer given meanwhile is kept).",
      inputSchema: {
        question: z.string().describe("the question, one line (at most 200 characters)"),
        details: z.string().optional().describe("more context, shown under the question"),
        choices: z.array(z.string()).min(1).max(5).optional().describe("the answers to choose from (at most 64 characters each)"),
        fields: z.array(formField).min(1).max(10).optional().describe("a form the person fills in instead of choices"),
        submitLabel: z.string().optional().describe("the form's button (default Answer)"),
        timeoutSeconds,
      },
    },
    tool(
      async (
        settings,
        args: { question: string; details?: string; choices?: string[]; fields?: z.infer<typeof formField>[]; submitLabel?: string; timeoutSeconds: number },
        extra,
      ) => {
        if (!args.choices === !args.fields) throw ProducerFailure.invalid("choices", "give either choices or fields, not both and not neither");
        const fields = args.fields?.map((f) => ({ ...f, type: f.type.toUpperCase() as Uppercase<typeof f.type> }));
        const handle = await publishQuestion(settings, {
          question: args.question,
          details: args.details,
          choices: args.choices,
          fields,
          submitLabel: args.submitLabel,
        });
        return answerText(await keepingAlive(extra, args.timeoutSeconds, (signal) => awaitAnswer(settings, handle, args.timeoutSeconds * 1000, signal)));
      },
    ),
  );

  server.registerTool(
    "await_answer",
    {
      ...claudeMeta("wait for the person's answer to a question"),
      title: "Wait for an answer",
      description: "Wait again for the answer to a question ask returned a handle for.",
      inputSchema: { handle: z.string().describe("the handle ask returned"), timeoutSeconds },
    },
    tool(async (settings, args: { handle: string; timeoutSeconds: number }, extra) =>
      answerText(await keepingAlive(extra, args.timeoutSeconds, (signal) => awaitAnswer(settings, args.handle, args.timeoutSeconds * 1000, signal))),
    ),
  );
}
