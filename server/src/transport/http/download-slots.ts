import { pipeline, Readable } from "node:stream";
import { givingWay, type RequestsInFlight } from "./download-priority.ts";

// Attachment downloads in flight per credential. A download holds a slot from its first byte
// read until its body ends, fails, is cancelled or its client goes away; past the bound the next
// one is refused (429) before anything is read, so one credential cannot keep the store busy
// with copies of a large file while everyone else waits.
export class DownloadSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly perCredential: number) {}

  /** A release function (idempotent), or null when the credential holds every slot. */
  acquire(credentialId: string): (() => void) | null {
    const current = this.held.get(credentialId) ?? 0;
    if (current >= this.perCredential) return null;
    this.held.set(credentialId, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(credentialId) ?? 1) - 1;
      if (left > 0) this.held.set(credentialId, left);
      else this.held.delete(credentialId);
    };
  }

  inFlight(credentialId: string): number {
    return this.held.get(credentialId) ?? 0;
  }
}

/**
 * A response body that reads the next chunk only when the client took the previous one, and
 * releases its slot exactly once however it ends (`signal`: the request's, aborted when the client
 * goes away). A body shorter than `size` (the asset was deleted meanwhile) errors, so the client
 * sees a cut transfer rather than a short file. A node stream, as a file's is: Yoga's node adapter
 * pipes it onto the response with the socket's own backpressure, where a WHATWG stream cost a
 * conversion per chunk on the request thread. One chunk (a 256 KiB slice) is read ahead at most:
 * its high-water mark is below a chunk, so the next read waits until the socket took the last.
 */
export function chunkedBody(
  chunks: AsyncIterable<Uint8Array>,
  size: number,
  release: () => void,
  signal: AbortSignal | undefined,
  requests: RequestsInFlight,
): Readable {
  const iterator = chunks[Symbol.asyncIterator]();
  let sent = 0;
  const body = new Readable({
    highWaterMark: 1,
    read() {
      void (async () => {
        const next = await iterator.next();
        if (next.done) {
          release();
          if (sent < size) body.destroy(new Error("the attachment ended early"));
          else body.push(null);
          return;
        }
        // Paced while other requests are served (download-priority.ts).
        await requests.giveWay(next.value.byteLength);
        sent += next.value.byteLength;
        // The last byte: free the slot before the client has it, not one read later.
        if (sent >= size) release();
        body.push(next.value);
      })().catch((error: unknown) => body.destroy(error as Error));
    },
    destroy(error, callback) {
      release();
      // The open file (or the reader's query) is let go of as well.
      void iterator.return?.();
      callback(error);
    },
  });
  // A client gone before or while the body is read: the stream ends itself.
  if (signal?.aborted) body.destroy();
  else signal?.addEventListener("abort", () => body.destroy(), { once: true });
  return body;
}

/**
 * A node stream (a file) as the response body: Yoga's node adapter pipes it onto node's own
 * response, with no conversion to and from a WHATWG stream per chunk. The slot is released when
 * the last byte is handed over, or when the stream fails or is destroyed (the client went away).
 */
export function streamedBody(file: Readable, release: () => void, signal: AbortSignal | undefined, requests: RequestsInFlight): Readable {
  // Paced while other requests are served (download-priority.ts); the pipeline destroys the file
  // when the body is destroyed, and the other way round.
  const stream = pipeline(file, givingWay(requests), () => undefined);
  // On "end", before the adapter's pipe ends the response (listeners run in order): a client that
  // starts its next download the moment this one arrives finds the slot free. "close" covers the rest.
  stream.once("end", release);
  stream.once("close", release);
  // Gone already (or going while the file opened): nothing will pipe the stream, so it closes itself.
  if (signal?.aborted) stream.destroy();
  else signal?.addEventListener("abort", () => stream.destroy(), { once: true });
  return stream;
}
