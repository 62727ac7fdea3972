// Long reads of the SQLite store off the request thread. The driver is synchronous: a query
// run on the server's thread holds up every request until it returns. This thread has its own
// read-only connection (WAL lets it read while the server writes); the server stays the only
// writer, so no transaction of its own can find the file taken by another connection.
import { Worker } from "node:worker_threads";

export type RawRows = Record<string, unknown>[];

type Reply = { id: number; rows: RawRows } | { id: number; error: string };

export class SqliteReadThread {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(rows: RawRows): void; reject(error: Error): void }>();

  constructor(private readonly file: string) {}

  /** Runs one read-only statement (`?` placeholders) on the thread, started on first use. */
  query(sql: string, params: readonly unknown[]): Promise<RawRows> {
    const worker = (this.worker ??= this.spawn());
    const id = ++this.nextId;
    // Referenced only while a query runs: an idle thread never keeps the process alive.
    worker.ref();
    return new Promise<RawRows>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, sql, params });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
    this.failAll(new Error("the store was closed"));
  }

  private spawn(): Worker {
    const worker = new Worker(new URL("./sqlite-read-worker.mjs", import.meta.url), { workerData: { file: this.file } });
    worker.unref();
    worker.on("message", (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if ("error" in reply) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(reply.rows);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      this.failAll(error);
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the SQLite read thread exited (${code})`)));
    return worker;
  }

  private failAll(error: Error) {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
