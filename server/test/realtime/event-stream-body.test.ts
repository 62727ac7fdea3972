// One open event stream's body: messages written in one turn of the event loop reach the socket
// together at its end, in order; what waits counts against the byte bound; an orderly end sends
// what waits first.
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { EventStreamBody } from "../../src/realtime/event-stream-body.ts";

const limits = (maxBufferedBytes = 1 << 16) => ({ heartbeatMs: 60_000, maxBufferedBytes });
const drained = (body: EventStreamBody) => {
  const chunks: string[] = [];
  let chunk: unknown;
  while ((chunk = body.readable.read()) !== null) chunks.push(String(chunk));
  return chunks.join("");
};

describe("an event stream's body", () => {
  it("hands the messages of one turn to the socket together at its end, in order", async () => {
    const body = new EventStreamBody(limits(), () => undefined);
    expect(body.write("a\n\n")).toBe(true);
    expect(body.write(Buffer.from("b\n\n"))).toBe(true);
    expect(body.readable.readableLength).toBe(0);
    await nextTurn();
    expect(drained(body)).toBe("a\n\nb\n\n");
    body.write("c\n\n");
    await nextTurn();
    expect(drained(body)).toBe("c\n\n");
    body.end();
  });

  it("counts what waits against the byte bound and cuts a client off past it", async () => {
    let cut = 0;
    const body = new EventStreamBody(limits(10), () => cut++);
    expect(body.write("12345")).toBe(true);
    expect(body.write("67890!")).toBe(false);
    expect(cut).toBe(1);
    expect(body.write("more")).toBe(false);
    await nextTurn();
    expect(body.readable.destroyed).toBe(true);
  });

  it("sends what waits before an orderly end, and nothing after it", async () => {
    const body = new EventStreamBody(limits(), () => undefined);
    const closed = new Promise<void>((resolve) => body.onClose(resolve));
    body.write("last\n\n");
    body.end();
    await closed;
    expect(body.write("late\n\n")).toBe(false);
    const chunks: string[] = [];
    for await (const chunk of body.readable) chunks.push(String(chunk));
    expect(chunks.join("")).toBe("last\n\n");
  });
});
