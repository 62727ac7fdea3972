// A subscription whose source fails mid-stream (its store went away) must end its response
// cleanly: the client resumes from its last cursor, and nothing is left to reject unobserved.
// An unhandled rejection here ended the whole server process (see security/postgres-restart.test.ts).
import { describe, expect, it } from "vitest";
import { guard } from "../../src/realtime/stream-guard.ts";

const encoder = new TextEncoder();

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A source that sends one message and then fails, as graphql-sse's stream does when its subscription throws. */
function failingSource() {
  let sent = false;
  let failed!: () => void;
  const failure = new Promise<void>((resolve) => (failed = resolve));
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(encoder.encode("event: next\ndata: {}\n\n"));
        return;
      }
      await nextTurn(); // the failure comes later, as a store's does, not within the read that asked
      failed();
      throw new Error("Herald's database is unavailable right now");
    },
  });
  return { stream, failure };
}

describe("a stream whose source fails", () => {
  it("ends the response after what was sent, without an error", async () => {
    const reader = guard(failingSource().stream, { heartbeatMs: 60_000, maxBufferedBytes: 1 << 16 }).getReader();
    const chunks: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(new TextDecoder().decode(value));
    }
    expect(chunks.join("")).toBe("event: next\ndata: {}\n\n");
  });

  it("takes a client's cancel after the failure without rejecting", async () => {
    const source = failingSource();
    const guarded = guard(source.stream, { heartbeatMs: 60_000, maxBufferedBytes: 1 << 16 });
    const reader = guarded.getReader();
    await reader.read();
    // The source fails before the client leaves: once it has thrown, the turn after lets every
    // reaction to the rejection (promise jobs, which all run before it) reach the guard.
    await source.failure;
    await nextTurn();
    await expect(reader.cancel("client left")).resolves.toBeUndefined();
  });
});
