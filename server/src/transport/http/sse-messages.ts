// The graphql-sse protocol's messages, serialised once: every member of a render group gets the
// same result object (transport/graphql/shared-render.ts), so its JSON is made once and, on
// distinct connections, so are the message's bytes. Single-connection messages splice the operation id in
// front of the shared JSON; the output is byte for byte what graphql-sse's own `print` writes.
// A render shared across persons carries a placeholder for the cursor: each person's JSON (and
// distinct message) is made once, with the person's own cursor in its place.
import type { ExecutionResult } from "graphql";
import { CURSOR_PLACEHOLDER, isSharedRender } from "../graphql/shared-render.ts";

const jsonOfRender = new WeakMap<ExecutionResult, string>();
const distinctMessageOfRender = new WeakMap<ExecutionResult, Buffer>();
const splicedJsonOfRender = new WeakMap<ExecutionResult, Map<string, string>>();
const splicedMessageOfRender = new WeakMap<ExecutionResult, Map<string, Buffer>>();

function jsonOf(result: ExecutionResult): string {
  if (!isSharedRender(result)) return JSON.stringify(result);
  let json = jsonOfRender.get(result);
  if (json === undefined) jsonOfRender.set(result, (json = JSON.stringify(result)));
  return json;
}

/** The render's JSON with `cursor` where it has the placeholder (a cursor is base64url: nothing to escape). */
function splicedJsonOf(result: ExecutionResult, cursor: string): string {
  if (!isSharedRender(result)) return jsonOf(result).replaceAll(CURSOR_PLACEHOLDER, cursor);
  let byCursor = splicedJsonOfRender.get(result);
  if (!byCursor) splicedJsonOfRender.set(result, (byCursor = new Map()));
  let json = byCursor.get(cursor);
  if (json === undefined) byCursor.set(cursor, (json = jsonOf(result).replaceAll(CURSOR_PLACEHOLDER, cursor)));
  return json;
}

/** Frames one operation's results: `null` on a distinct connection, else the operation's id. */
export class MessageFramer {
  private readonly nextPrefix: string | null;
  constructor(private readonly operationId: string | null) {
    this.nextPrefix = operationId === null ? null : `event: next\ndata: {"id":${JSON.stringify(operationId)},"payload":`;
  }

  /** `cursor`: the member's own, for a render shared across persons (see CURSOR_PLACEHOLDER). */
  next(result: ExecutionResult, cursor?: string): string | Buffer {
    const json = cursor === undefined ? jsonOf(result) : splicedJsonOf(result, cursor);
    if (this.nextPrefix !== null) return `${this.nextPrefix}${json}}\n\n`;
    if (!isSharedRender(result)) return `event: next\ndata: ${json}\n\n`;
    if (cursor === undefined) {
      let message = distinctMessageOfRender.get(result);
      if (!message) distinctMessageOfRender.set(result, (message = Buffer.from(`event: next\ndata: ${json}\n\n`)));
      return message;
    }
    let byCursor = splicedMessageOfRender.get(result);
    if (!byCursor) splicedMessageOfRender.set(result, (byCursor = new Map()));
    let message = byCursor.get(cursor);
    if (!message) byCursor.set(cursor, (message = Buffer.from(`event: next\ndata: ${json}\n\n`)));
    return message;
  }

  complete(): string {
    return this.operationId === null ? "event: complete\ndata:\n\n" : `event: complete\ndata: {"id":${JSON.stringify(this.operationId)}}\n\n`;
  }
}
