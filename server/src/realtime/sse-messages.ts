// The graphql-sse protocol's messages, serialised once: every member of a render group gets the
// same result object (shared-render.ts), so its JSON is made once and, on
// distinct connections, so are the message's bytes. Single-connection messages splice the operation id in
// front of the shared JSON; the output is byte for byte what graphql-sse's own `print` writes.
// A render shared across persons carries a placeholder for the cursor: each person's JSON (and
// distinct message) is made once, with the person's own cursor in its place.
import type { ExecutionResult } from "graphql";
import { isSharedRender, spliceCursor } from "./shared-render.ts";

// Per shared render, by cursor: "" for the render as it is (a cursor is never empty).
const jsonOfRender = new WeakMap<ExecutionResult, Map<string, string>>();
const distinctMessageOfRender = new WeakMap<ExecutionResult, Map<string, Buffer>>();

function byCursor<V>(cache: WeakMap<ExecutionResult, Map<string, V>>, result: ExecutionResult): Map<string, V> {
  let known = cache.get(result);
  if (!known) cache.set(result, (known = new Map()));
  return known;
}

/** The result's JSON, with `cursor` in place of the placeholder when one is given. */
function jsonOf(result: ExecutionResult, cursor: string): string {
  if (!isSharedRender(result)) return cursor ? spliceCursor(JSON.stringify(result), cursor) : JSON.stringify(result);
  const known = byCursor(jsonOfRender, result);
  let json = known.get(cursor);
  if (json === undefined) known.set(cursor, (json = cursor ? spliceCursor(jsonOf(result, ""), cursor) : JSON.stringify(result)));
  return json;
}

/** Frames one operation's results: `null` on a distinct connection, else the operation's id. */
export class MessageFramer {
  private readonly nextPrefix: string | null;
  constructor(private readonly operationId: string | null) {
    this.nextPrefix = operationId === null ? null : `event: next\ndata: {"id":${JSON.stringify(operationId)},"payload":`;
  }

  /** `cursor`: the member's own, for a render shared across persons (see CURSOR_PLACEHOLDER). */
  next(result: ExecutionResult, cursor = ""): string | Buffer {
    const json = jsonOf(result, cursor);
    if (this.nextPrefix !== null) return `${this.nextPrefix}${json}}\n\n`;
    if (!isSharedRender(result)) return `event: next\ndata: ${json}\n\n`;
    const known = byCursor(distinctMessageOfRender, result);
    let message = known.get(cursor);
    if (!message) known.set(cursor, (message = Buffer.from(`event: next\ndata: ${json}\n\n`)));
    return message;
  }

  complete(): string {
    return this.operationId === null ? "event: complete\ndata:\n\n" : `event: complete\ndata: {"id":${JSON.stringify(this.operationId)}}\n\n`;
  }
}
