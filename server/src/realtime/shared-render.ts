// Render once per group: many live subscriptions of one person usually run the same document
// with the same variables, and each event reaches all of them as the same item object (see
// itemFor in stream-items.ts). Executing the document once per
// (payload, document, variables that reach the per-event execution, operation name) and handing
// every member the same result replaces one execution per subscriber with one per group.
// graphql-yoga's executor would execute per subscriber (it maps each source event through its
// own execute), so the subscription is started here: graphql-js's createSourceEventStream runs
// the field's subscribe resolver exactly as before, and each event is executed through the memo.
import { randomBytes } from "node:crypto";
import {
  BREAK,
  createSourceEventStream,
  type DocumentNode,
  execute,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { isAsyncIterable } from "@graphql-tools/utils";
import type { Plugin } from "graphql-yoga";
import type { StreamSink } from "./person-stream.ts";
import type { Caller } from "../service/caller.ts";
import { notificationGraphqlFields } from "../domain/notification-fields.ts";

/** What a render reads of its subscription's context (transport/graphql/context.ts makes it). */
interface RenderContext {
  caller: Caller | null;
}

/**
 * Set in a subscription's initial context by a transport that writes results itself
 * (/graphql/stream). Its stream comes back as OwnResults, past envelop's per-result hooks: each
 * would wrap every event of every stream in an iterator layer of its own, so the masking they
 * would do is done here, once per render (bench/history.md, "Render once: live fan-out").
 */
export const OWN_RESULTS = Symbol("herald.ownResults");

/** A subscription's results for a transport that asked for them with OWN_RESULTS: already masked. */
export class OwnResults {
  constructor(readonly results: AsyncIterableIterator<ExecutionResult>) {}
}

export interface SharedRenderOptions {
  /** The server's error masking, as Yoga applies it to every result it sends. */
  maskError(error: GraphQLError): GraphQLError;
  /** The caller's own cursor of a source event, spliced into renders shared across persons. */
  cursorOf(ctx: RenderContext, event: unknown): string | undefined;
  /** Called for every render made (one per group and event). */
  onRender?(): void;
}

/**
 * Across persons: an APPLICATION event reaches every person, and every person without a receipt
 * of it sees the same item (person-stream.ts). A render of a document that reads nothing
 * of its caller is then the same for all of them but for the cursor, which is signed per person:
 * such a render carries this placeholder as its cursor, and the transport writes each member's
 * own cursor in its place (sse-messages.ts). Random per process, so no producer can put it in a
 * title. Only transports that serialise the results themselves (OWN_RESULTS) take part.
 */
export const CURSOR_PLACEHOLDER = `herald-cursor-${randomBytes(12).toString("hex")}`;
const SPLICED_CURSOR = Symbol("herald.splicedCursor");

/** A shared render's JSON with a member's own cursor in place of the placeholder (a cursor is base64url: nothing to escape). */
export const spliceCursor = (json: string, cursor: string): string => json.replaceAll(CURSOR_PLACEHOLDER, cursor);

/** True in the context of a subscription whose renders carry the cursor placeholder. */
export const splicesCursor = (ctx: object): boolean => (ctx as Record<symbol, unknown>)[SPLICED_CURSOR] === true;

/**
 * The fields a render shared across persons may read: none of them reads the caller. An
 * allow-list, so that a field added later stays bound to its person until someone checks it and
 * lists it here. Notification's free fields are those that show a field of the record
 * (domain/notification-fields.ts); every other field of each type listed here must be named in
 * PERSON_BOUND (test/realtime/person-free.test.ts holds both lists to the schema), so a new
 * field fails that test until it is classified.
 */
export const PERSON_FREE: Readonly<Record<string, ReadonlySet<string>>> = {
  Subscription: new Set(["notificationEvents"]),
  NotificationEvent: new Set(["cursor", "type", "notification"]),
  Notification: new Set(notificationGraphqlFields()),
  NotificationSource: new Set(["plugin", "subsystem"]),
  NotificationDisplay: new Set(["body", "bodyHtml", "dismissible", "format", "presentation", "title", "variant"]),
  NotificationAction: new Set(["actionId", "assetId", "fixedParams", "form", "id", "kind", "label", "text", "url"]),
  NotificationOperation: new Set(["cancellable", "elapsedSeconds", "id", "phase", "state", "type"]),
  NotificationRetention: new Set(["expiresAt", "policy", "requestId"]),
  NotificationTrigger: new Set(["ref", "type"]),
  NotificationResolution: new Set(["actionId", "values"]),
};

/**
 * The other fields of the types above: each reads the caller (their membership, their
 * invocations, their deliveries) or is another subscription, so a document that selects one is
 * rendered per person.
 */
export const PERSON_BOUND: Readonly<Record<string, ReadonlySet<string>>> = {
  Subscription: new Set(["actionInvocations", "preferencesEvents"]),
  Notification: new Set(["deliveries", "engagement", "lastInvocation", "session"]),
};

/** Whether every field the document selects (in every operation and fragment) is person-free. */
export function readsNoCaller(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let free = true;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        if (node.name.value === "__typename") return undefined;
        const parent = typeInfo.getParentType();
        if (parent && PERSON_FREE[parent.name]?.has(node.name.value)) return undefined;
        free = false;
        return BREAK;
      },
    }),
  );
  return free;
}

/** Results handed to every member of a group: the transport serialises each once. */
const sharedRenders = new WeakSet<ExecutionResult>();

/**
 * Every member gets the render itself, frozen: a later step that wants a result of its own (the
 * masking) replaces it, and one that tried to change it in place would fail loudly instead of
 * changing every member's event.
 */
export function shareRender(rendered: ExecutionResult): ExecutionResult {
  sharedRenders.add(Object.freeze(rendered));
  return rendered;
}

/** True for a render every member of a group received as is (see shareRender). */
export function isSharedRender(result: ExecutionResult): boolean {
  return sharedRenders.has(result);
}

const ownResults = (args: ExecutionArgs): boolean => (args.contextValue as Record<symbol, unknown> | undefined)?.[OWN_RESULTS] === true;

/**
 * The variables an event's execution reads: every one the operation uses, except in the root
 * field's own arguments (`after` there only positions the source stream, which is per subscriber).
 */
function perEventVariables(document: DocumentNode, operation: OperationDefinitionNode): string[] {
  const names = new Set<string>();
  const rootArguments = new Set(operation.selectionSet.selections.flatMap((selection) => (selection.kind === Kind.FIELD ? (selection.arguments ?? []) : [])));
  for (const definition of document.definitions) {
    if (definition !== operation && definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
    visit(definition, {
      Argument: (node) => (rootArguments.has(node) ? false : undefined),
      VariableDefinition: () => false,
      Variable: (node) => {
        names.add(node.name.value);
      },
    });
  }
  return [...names].sort();
}

function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
}

function onlyNotificationEvents(document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = operationOf(document, operationName);
  if (operation?.operation !== "subscription") return false;
  const fields = operation.selectionSet.selections;
  return fields.length > 0 && fields.every((field) => field.kind === Kind.FIELD && field.name.value === "notificationEvents");
}

type Render = (args: ExecutionArgs, group: string | null, payload: unknown) => Promise<ExecutionResult>;

/** Where a subscription's results go when the transport takes them as they come (attach). */
export interface ResultSink {
  /**
   * One result; false when it could not be written (the stream is closed), which ends the
   * subscription. `cursor`: the member's own cursor, to write where the render has CURSOR_PLACEHOLDER.
   */
  result(result: ExecutionResult, cursor?: string): boolean;
  /** The subscription is over: null when it ended (its `complete` follows), else the error it failed with. */
  end(error: Error | null): void;
}

/** A source that pushes (the person stream): its results can be attached rather than pulled. */
interface Attachable {
  attach(sink: StreamSink<unknown>): void;
  close(): void;
}

const isAttachable = (stream: unknown): stream is Attachable =>
  typeof (stream as Attachable).attach === "function" && typeof (stream as Attachable).close === "function";

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * One subscription's results: each source event rendered through its group. A transport that
 * writes results itself attaches a sink (live is true), and every event goes from the person
 * stream through the render to the sink with no pending promise per stream between events;
 * others iterate it. A class, not an object of closures: every open stream holds one
 * (bench/history.md, "Lean subscribers").
 * throw() as well as return(): graphql-sse releases only what looks like an async generator.
 */
export class RenderedResults implements AsyncIterableIterator<ExecutionResult>, StreamSink<unknown> {
  private iterator: AsyncIterator<unknown> | null = null;
  private out: ResultSink | null = null;
  private readonly pushing: Attachable | null;
  // The source event being rendered (the source waits for it before sending another).
  private current: unknown = null;

  constructor(
    private readonly stream: AsyncIterable<unknown>,
    private readonly render: Render,
    private readonly args: ExecutionArgs,
    private readonly group: string | null,
    /** Renders shared across persons: the member's own cursor of an event, for the splice. */
    private readonly cursorOf: SharedRenderOptions["cursorOf"] | null,
  ) {
    this.pushing = isAttachable(stream) ? stream : null;
    if (!this.pushing) this.iterator = stream[Symbol.asyncIterator]();
  }

  /** True while results can still be attached: the source pushes and nobody iterates it yet. */
  get live(): boolean {
    return this.pushing !== null && this.iterator === null && this.out === null;
  }

  /** Sends every result to `out` as it is rendered (see ResultSink). */
  attach(out: ResultSink): void {
    this.out = out;
    this.pushing!.attach(this);
  }

  /** The source's next payload (StreamSink), rendered once per group; the source waits for it. */
  item(payload: unknown): Promise<void> {
    this.current = payload;
    return this.render(this.args, this.group, payload).then(this.written);
  }

  /** The source is over (StreamSink). */
  end(error: Error | null): void {
    this.out?.end(error);
  }

  // One function per stream, not one per event.
  private readonly written = (result: ExecutionResult): void => {
    if (!this.out!.result(result, this.spliced(this.current))) this.pushing!.close();
  };

  private spliced(event: unknown): string | undefined {
    return this.cursorOf?.(this.args.contextValue as RenderContext, event);
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    this.iterator ??= this.stream[Symbol.asyncIterator]();
    const event = await this.iterator.next();
    if (event.done) return DONE;
    const result = await this.render(this.args, this.group, event.value);
    const cursor = this.spliced(event.value);
    // Iterated although it splices (no transport here to do it): the member's own copy.
    if (cursor === undefined) return { done: false, value: result };
    return { done: false, value: JSON.parse(spliceCursor(JSON.stringify(result), cursor)) as ExecutionResult };
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    this.stop();
    await this.iterator?.return?.();
    return DONE;
  }

  async throw(error: unknown): Promise<never> {
    this.stop();
    await this.iterator?.return?.();
    throw error;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ExecutionResult> {
    return this;
  }

  private stop() {
    if (this.iterator === null) this.pushing?.close();
  }
}

export function useSharedRender({ maskError, cursorOf, onRender }: SharedRenderOptions): Plugin {
  let nextDocument = 0;
  const documents = new WeakMap<DocumentNode, { id: number; variables: Map<string, string[]>; personFree: boolean }>();
  // Per payload, the render of each group; dropped with the payload once every stream is past it.
  const renders = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();

  const documentOf = (args: ExecutionArgs) => {
    let known = documents.get(args.document);
    if (!known) documents.set(args.document, (known = { id: nextDocument++, variables: new Map(), personFree: readsNoCaller(args.schema, args.document) }));
    return known;
  };

  // A group is one person's, unless its renders are shared across persons (see CURSOR_PLACEHOLDER).
  const groupOf = (args: ExecutionArgs, acrossPersons: boolean): string | null => {
    const operation = operationOf(args.document, args.operationName);
    if (!operation) return null;
    const known = documentOf(args);
    const operationKey = args.operationName ?? "";
    let names = known.variables.get(operationKey);
    if (!names) known.variables.set(operationKey, (names = perEventVariables(args.document, operation)));
    const values = args.variableValues ?? {};
    const person = acrossPersons ? null : (((args.contextValue as RenderContext).caller as { personId?: string } | null)?.personId ?? "");
    return JSON.stringify([person, known.id, operationKey, names.map((name) => values[name] ?? null)]);
  };

  // Masked here, once per render, for every member: Yoga's masking after it (for members whose
  // results go through Yoga) finds nothing left to change.
  const run = async (args: ExecutionArgs, payload: unknown) => {
    const result = (await execute({ ...args, rootValue: payload })) as ExecutionResult;
    return result.errors ? { ...result, errors: result.errors.map(maskError) } : result;
  };
  // Every payload of a person's event stream is one object for all of that person's streams
  // (person-stream.ts); a StreamEnded is one stream's own, so its render is too.
  // This runs for every member and event: it makes no closure of its own.
  const render: Render = (args, group, payload) => {
    if (group === null || typeof payload !== "object" || payload === null) return run(args, payload);
    let groups = renders.get(payload);
    if (!groups) renders.set(payload, (groups = new Map()));
    let rendered = groups.get(group);
    if (!rendered) {
      onRender?.();
      rendered = run(args, payload).then(shareRender);
      groups.set(group, rendered);
    }
    return rendered;
  };

  return {
    onSubscribe({ args: subscription, setSubscribeFn }) {
      // Only the person's event stream: other subscriptions keep the executor's own path.
      if (!onlyNotificationEvents(subscription.document, subscription.operationName)) return;
      setSubscribeFn(async (args) => {
        const acrossPersons = ownResults(args) && documentOf(args).personFree;
        if (acrossPersons) (args.contextValue as Record<symbol, unknown>)[SPLICED_CURSOR] = true;
        const stream = await createSourceEventStream(args);
        // Refused before the stream opened (no right to it, a bad cursor): graphql-js's answer is
        // what the executor would give (errors, no data); running it again would ask twice.
        if (!isAsyncIterable(stream)) return stream;
        const results = new RenderedResults(stream, render, args, groupOf(args, acrossPersons), acrossPersons ? cursorOf : null);
        // Not async iterable: envelop passes it through as it is (its hooks find no errors on it).
        return ownResults(args) ? (new OwnResults(results) as unknown as ExecutionResult) : results;
      });
    },
  };
}
