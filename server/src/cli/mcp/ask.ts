// `ask` and `await_answer`: a question as a notification whose RUN_ACTION follow-ups are the
// answers (one per choice, or one form), then a wait for the person's invocation. An answer is
// acknowledged (so it is not replayed again) and resolves the notification; on timeout the
// notification stays open and its id is the handle to wait on again.
import { randomUUID } from "node:crypto";
import { callHerald, type ProducerConnection } from "../producer-client.ts";
import { type Invocation, nextInvocation } from "./invocations.ts";
import { acknowledge, publish, resolve } from "./operations.ts";
import type { McpSettings } from "./settings.ts";

/** What the agent gets back: the answer, or the handle to wait on. */
export type AskOutcome =
  { status: "answered"; handle: string; choice?: { index: number; label: string }; values?: Record<string, unknown> } | { status: "pending"; handle: string };

export interface FormFieldSpec {
  name: string;
  label: string;
  type: "TEXT" | "TEXTAREA" | "NUMBER" | "BOOLEAN" | "SELECT";
  required?: boolean;
  options?: string[];
  placeholder?: string;
  maxLength?: number;
}

export interface Question {
  question: string;
  details?: string;
  choices?: string[];
  fields?: FormFieldSpec[];
  submitLabel?: string;
}

/** The follow-ups the person answers with; their fixedParams come back on the invocation. */
export function answerActions(question: Question): Record<string, unknown>[] {
  if (question.choices) {
    return question.choices.map((label, index) => ({
      kind: "RUN_ACTION",
      id: `choice-${index + 1}`,
      label,
      actionId: "answer",
      fixedParams: { choice: label, index },
    }));
  }
  return [{ kind: "RUN_ACTION", id: "answer", label: question.submitLabel ?? "Answer", actionId: "answer", form: question.fields }];
}

export async function publishQuestion(settings: McpSettings, question: Question): Promise<string> {
  const published = await publish(settings.connection, {
    scope: "PERSON",
    personId: settings.personId,
    key: `ask-${randomUUID()}`,
    title: question.question,
    body: question.details ?? null,
    severity: "WARNING",
    source: { plugin: settings.plugin },
    actions: answerActions(question),
  });
  return published.id;
}

// Answered handles of this process: a second await_answer of one returns the same answer without
// asking Herald again.
const answered = new Map<string, AskOutcome>();

/** Waits up to `timeoutMs` (or until `cancel`) for the answer to the question `handle`. */
export async function awaitAnswer(settings: McpSettings, handle: string, timeoutMs: number, cancel: AbortSignal): Promise<AskOutcome> {
  const known = answered.get(handle) ?? (await answeredBefore(settings.connection, handle));
  if (known) return known;
  await checkCredential(settings.connection, settings.plugin);
  const signal = AbortSignal.any([cancel, AbortSignal.timeout(timeoutMs)]);
  const invocation = await nextInvocation(settings.connection, settings.plugin, handle, signal);
  if (!invocation) return { status: "pending", handle };
  const outcome = outcomeOf(handle, invocation);
  // Resolved with the answer first: once acknowledged the invocation is replayed no more, and the
  // resolution is where a later wait (another process, any time later) finds the answer.
  // The person may have dismissed it meanwhile: the answer still stands.
  await resolve(settings.connection, handle, { resolution: { actionId: invocation.actionId, values: invocation.values ?? {} } }).catch(() => undefined);
  await acknowledge(settings.connection, invocation.id, "The agent received the answer.");
  answered.set(handle, outcome);
  return outcome;
}

const QUESTION = `query McpQuestion($id: ID!) { notification(id: $id) { status resolution { actionId values } actions { id label } } }`;

/** The answer a question was resolved with (by an earlier wait, in any process), or null. */
async function answeredBefore(connection: ProducerConnection, handle: string): Promise<AskOutcome | null> {
  let question: Record<string, unknown>;
  try {
    question = await callHerald(connection, "notification", QUESTION, { id: handle });
  } catch (error) {
    // Not found, not this key's, or an admin key (which reads no person's records): the wait
    // below says no more than before.
    if (/without notification$|\(FORBIDDEN\)$/.test((error as Error).message)) return null;
    throw error;
  }
  const resolution = question.resolution as { actionId?: string | null; values?: Record<string, unknown> | null } | null;
  if (question.status !== "RESOLVED" || !resolution?.actionId) return null;
  const outcome = outcomeOfAnswer(handle, resolution.actionId, resolution.values ?? {}, (question.actions as { id: string; label: string }[] | null) ?? []);
  answered.set(handle, outcome);
  return outcome;
}

/** An answer from the follow-up the person chose: `choice-N` is the N-th choice, else the form's values. */
function outcomeOfAnswer(handle: string, actionId: string, values: Record<string, unknown>, actions: { id: string; label: string }[]): AskOutcome {
  const choice = /^choice-(\d+)$/.exec(actionId);
  const label = actions.find((a) => a.id === actionId)?.label;
  if (choice && label !== undefined) return { status: "answered", handle, choice: { index: Number(choice[1]) - 1, label } };
  return { status: "answered", handle, values };
}

function outcomeOf(handle: string, invocation: Invocation): AskOutcome {
  const params = invocation.fixedParams ?? {};
  if (typeof params.choice === "string" && typeof params.index === "number")
    return { status: "answered", handle, choice: { index: params.index, label: params.choice } };
  return { status: "answered", handle, values: invocation.values ?? {} };
}

/** A refused key or plugin fails at once here, not after the answer stream's reconnects. */
async function checkCredential(connection: ProducerConnection, plugin: string): Promise<void> {
  await callHerald(connection, "actionInvocations", `query McpCheck($plugin: String) { actionInvocations(plugin: $plugin, first: 1) { hasMore } }`, { plugin });
}
