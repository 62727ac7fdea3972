// The graphql-sse protocol's messages, serialised once: every member of a render group gets the
// same result object (transport/graphql/shared-render.ts), so its JSON is made once and, on
// distinct connections, so are the message's bytes. Single-connection messages splice the operation id in
// front of the shared JSON; the output is byte for byte what graphql-sse's own `print` writes.
import type { ExecutionResult } from "graphql";
import { isSharedRender } from "../graphql/shared-render.ts";

const jsonOfRender = new WeakMap<ExecutionResult, string>();
const distinctMessageOfRender = new WeakMap<ExecutionResult, Buffer>();

function jsonOf(result: ExecutionResult): string {
  if (!isSharedRender(result)) return JSON.stringify(result);
  let json = jsonOfRender.get(result);
  if (json === undefined) jsonOfRender.set(result, (json = JSON.stringify(result)));
  return json;
}

/** Frames one operation's results: `null` on a distinct connection, else the operation's id. */
export class MessageFramer {
  private readonly nextPrefix: string | null;
  constructor(private readonly operationId: string | null) {
    this.nextPrefix = operationId === null ? null : `event: next\ndata: {"id":${JSON.stringify(operationId)},"payload":`;
  }

  next(result: ExecutionResult): string | Buffer {
    if (this.nextPrefix !== null) return `${this.nextPrefix}${jsonOf(result)}}\n\n`;
    if (!isSharedRender(result)) return `event: next\ndata: ${JSON.stringify(result)}\n\n`;
    let message = distinctMessageOfRender.get(result);
    if (!message) distinctMessageOfRender.set(result, (message = Buffer.from(`event: next\ndata: ${jsonOf(result)}\n\n`)));
    return message;
  }

  complete(): string {
    return this.operationId === null ? "event: complete\ndata:\n\n" : `event: complete\ndata: {"id":${JSON.stringify(this.operationId)}}\n\n`;
  }
}
