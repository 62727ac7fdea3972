// The graphql-sse protocol's messages, serialised once: every member of a render group gets the
// same result (transport/graphql/shared-render.ts), so its JSON is made once and, on distinct
// connections, so are the message's bytes. Single-connection messages splice the operation id in
// front of the shared JSON; the output is byte for byte what graphql-sse's own `print` writes.
import type { ExecutionResult } from "graphql";
import { sharedRenderOf } from "../graphql/shared-render.ts";

const jsonOfRender = new WeakMap<ExecutionResult, string>();
const distinctMessageOfRender = new WeakMap<ExecutionResult, Buffer>();

/** The render a result still equals field for field (a later step may have replaced one on its copy). */
function unchangedRender(result: ExecutionResult): ExecutionResult | undefined {
  const render = sharedRenderOf(result);
  if (!render) return undefined;
  const keys = Object.keys(result);
  if (keys.length !== Object.keys(render).length) return undefined;
  for (const key of keys) if ((result as Record<string, unknown>)[key] !== (render as Record<string, unknown>)[key]) return undefined;
  return render;
}

function renderJson(render: ExecutionResult): string {
  let json = jsonOfRender.get(render);
  if (json === undefined) jsonOfRender.set(render, (json = JSON.stringify(render)));
  return json;
}

function jsonOf(result: ExecutionResult): string {
  const render = unchangedRender(result);
  return render ? renderJson(render) : JSON.stringify(result);
}

/** Frames one operation's results: `null` on a distinct connection, else the operation's id. */
export class MessageFramer {
  private readonly nextPrefix: string | null;
  constructor(private readonly operationId: string | null) {
    this.nextPrefix = operationId === null ? null : `event: next\ndata: {"id":${JSON.stringify(operationId)},"payload":`;
  }

  next(result: ExecutionResult): string | Buffer {
    if (this.nextPrefix !== null) return `${this.nextPrefix}${jsonOf(result)}}\n\n`;
    const render = unchangedRender(result);
    if (!render) return `event: next\ndata: ${JSON.stringify(result)}\n\n`;
    let message = distinctMessageOfRender.get(render);
    if (!message) distinctMessageOfRender.set(render, (message = Buffer.from(`event: next\ndata: ${renderJson(render)}\n\n`)));
    return message;
  }

  complete(): string {
    return this.operationId === null ? "event: complete\ndata:\n\n" : `event: complete\ndata: {"id":${JSON.stringify(this.operationId)}}\n\n`;
  }
}
