// The bytes of /graphql/stream: what graphql-sse's own `print` writes, made once per shared render.
import { print } from "graphql-sse";
import type { ExecutionResult } from "graphql";
import { describe, expect, it } from "vitest";
import { shareRender } from "../../src/realtime/shared-render.ts";
import { MessageFramer } from "../../src/realtime/sse-messages.ts";

const text = (message: string | Buffer) => message.toString();
const render: ExecutionResult = { data: { notificationEvents: { cursor: "c1", type: "CREATED", notification: { id: "n1", title: 'Ünïcode "quoted"\n' } } } };

describe("graphql-sse messages", () => {
  it("are byte for byte what graphql-sse prints, in both modes", () => {
    const distinct = new MessageFramer(null);
    const single = new MessageFramer('op "1"');
    for (const result of [render, shareRender({ ...render })]) {
      expect(text(distinct.next(result))).toBe(print({ event: "next", data: render }));
      expect(text(single.next(result))).toBe(print({ event: "next", data: { id: 'op "1"', payload: render } }));
    }
    expect(distinct.complete()).toBe(print({ event: "complete", data: null }));
    expect(single.complete()).toBe(print({ event: "complete", data: { id: 'op "1"' } }));
  });

  it("serialise a shared render once for every member", () => {
    const rendered = shareRender({ data: { n: 1 } });
    const a = new MessageFramer(null).next(rendered);
    const b = new MessageFramer(null).next(rendered);
    // The same bytes object: made once, written to every member's socket.
    expect(Buffer.isBuffer(a)).toBe(true);
    expect(b).toBe(a);
  });

  it("serialise on its own a result a later step put in a member's place, and refuse changes to the shared one", () => {
    const rendered = shareRender({ data: { n: 1 } });
    // The masking replaces a result rather than change it: the replacement is this member's own.
    const replaced: ExecutionResult = { ...rendered, errors: [{ message: "masked" } as never] };
    expect(text(new MessageFramer(null).next(replaced))).toBe(print({ event: "next", data: { data: { n: 1 }, errors: [{ message: "masked" }] } as never }));
    expect(text(new MessageFramer(null).next(rendered))).toBe(print({ event: "next", data: { data: { n: 1 } } }));
    expect(() => {
      (rendered as { extensions?: unknown }).extensions = { mine: true };
    }).toThrow(TypeError);
  });
});
