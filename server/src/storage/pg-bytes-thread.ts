// Attachment slices read from PostgreSQL on a thread of their own. node-postgres hands a bytea
// value over as hex text: decoding it, and joining the socket's pieces of a 256 KiB slice, took
// about 200 ms of the request thread per 10 MiB download (measured), in one stretch per slice,
// so four downloads held every other request. The thread does that work on its own connection
// and hands each slice over without a copy (a transferred ArrayBuffer).
import { Worker } from "node:worker_threads";

export interface BytesThreadData {
  url: string;
  /** The quoted, schema-qualified Asset table. */
  table: string;
}

export type BytesRequest = { kind: "slice"; id: number; assetId: string; offset: number; length: number } | { kind: "close" };
export type BytesReply = { id: number; chunk: ArrayBuffer | null } | { id: number; error: string };

const CLOSE_WAIT_MS = 2_000;

// The compiled server starts the worker's own module; from TypeScript sources (in-process tests)
// an entry registers tsx first, like the scanner's selection thread.
const workerEntry = import.meta.url.endsWith(".ts") ? new URL("./pg-bytes-worker-entry.mjs", import.meta.url) : new URL("./pg-bytes-worker.js", import.meta.url);

export class PostgresBytesThread {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(chunk: Buffer | null): void; reject(error: Error): void }>();

  constructor(private readonly data: BytesThreadData) {}

  /** `length` bytes from `offset` (0-based), or null when the asset is gone. Started on first use. */
  slice(assetId: string, offset: number, length: number): Promise<Buffer | null> {
    const worker = (this.worker ??= this.spawn());
    const id = ++this.nextId;
    // Referenced only while a read runs: an idle thread never keeps the process alive.
    worker.ref();
    return new Promise<Buffer | null>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ kind: "slice", id, assetId, offset, length } satisfies BytesRequest);
    });
  }

  /** Lets the thread close its connections, and stops it if it does not end in time. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.postMessage({ kind: "close" } satisfies BytesRequest);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS);
    await exited;
    clearTimeout(timer);
    this.failAll(new Error("the attachment reader was stopped"));
  }

  private spawn(): Worker {
    const worker = new Worker(workerEntry, { workerData: this.data, execArgv: [] });
    worker.unref();
    worker.on("message", (reply: BytesReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if ("error" in reply) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(reply.chunk && Buffer.from(reply.chunk));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      this.failAll(error);
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the attachment reader exited (${code})`)));
    return worker;
  }

  private failAll(error: Error) {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
