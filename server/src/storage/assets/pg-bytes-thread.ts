// Attachment slices read from PostgreSQL on a thread of their own. node-postgres hands a bytea
// value over as hex text: decoding it, and joining the socket's pieces of a 256 KiB slice, took
// about 200 ms of the request thread per 10 MiB download (measured), in one stretch per slice,
// so four downloads held every other request. The thread does that work on its own connection
// and hands each slice over without a copy (a transferred ArrayBuffer).
import { RequestThread } from "../../util/request-thread.ts";

export interface BytesThreadData {
  url: string;
  /** The slice statement, built and compiled by the caller (asset-bytes.ts). */
  slice: SliceStatement;
}

/** What each of the slice statement's parameters is: the asset, the first byte (1-based) and the length. */
export type SliceParameter = "id" | "from" | "for";
export interface SliceStatement {
  sql: string;
  parameters: SliceParameter[];
}

export type BytesRequest = { kind: "slice"; id: number; assetId: string; offset: number; length: number } | { kind: "close" };
export type BytesReply = { id: number; chunk: ArrayBuffer | null } | { id: number; error: string };

// The compiled server starts the worker's own module; from TypeScript sources (in-process tests)
// an entry registers tsx first, like the scanner's selection thread.
const workerEntry = import.meta.url.endsWith(".ts")
  ? new URL("./pg-bytes-worker-entry.mjs", import.meta.url)
  : new URL("./pg-bytes-worker.js", import.meta.url);

export class PostgresBytesThread {
  private readonly thread: RequestThread<Buffer | null>;

  constructor(data: BytesThreadData) {
    this.thread = new RequestThread(workerEntry, data, "the attachment reader", (reply) => {
      const chunk = (reply as Extract<BytesReply, { chunk: unknown }>).chunk;
      return chunk && Buffer.from(chunk);
    });
  }

  /** `length` bytes from `offset` (0-based), or null when the asset is gone. Started on first use. */
  slice(assetId: string, offset: number, length: number): Promise<Buffer | null> {
    return this.thread.request({ kind: "slice", assetId, offset, length } satisfies Omit<Extract<BytesRequest, { kind: "slice" }>, "id">);
  }

  /** Lets the thread close its connections, and stops it if it does not end in time. */
  close(): Promise<void> {
    return this.thread.close();
  }
}
