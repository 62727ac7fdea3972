// A worker thread that answers numbered requests: started on first use (and again after it died),
// referenced only while a request waits, so an idle thread never keeps the process alive. The
// scanner's selection and PostgreSQL's attachment slices each run on one.
import { Worker } from "node:worker_threads";

/** What the thread answers to a request: its value, or the error it met. */
export type ThreadReply = { id: number; error: string } | ({ id: number } & Record<string, unknown>);

const CLOSE_WAIT_MS = 2_000;

export class RequestThread<Value> {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(value: Value): void; reject(error: Error): void }>();

  constructor(
    private readonly entry: URL,
    private readonly data: unknown,
    /** Names the thread in errors, e.g. "the selection thread". */
    private readonly name: string,
    /** The value a successful reply carries. */
    private readonly valueOf: (reply: ThreadReply) => Value,
  ) {}

  /** Posts `{ ...message, id }` and resolves with the reply's value. */
  request(message: Record<string, unknown>): Promise<Value> {
    const worker = (this.worker ??= this.spawn());
    const id = ++this.nextId;
    worker.ref();
    return new Promise<Value>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  }

  /** Lets the thread close its connections (`{ kind: "close" }`), and stops it if it does not end in time. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.postMessage({ kind: "close" });
    const timer = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS);
    await exited;
    clearTimeout(timer);
    this.failAll(new Error(`${this.name} was stopped`));
  }

  private spawn(): Worker {
    const worker = new Worker(this.entry, { workerData: this.data, execArgv: [] });
    worker.unref();
    worker.on("message", (reply: ThreadReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if ("error" in reply && typeof reply.error === "string") waiting?.reject(new Error(reply.error));
      else waiting?.resolve(this.valueOf(reply));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      this.failAll(error);
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`${this.name} exited (${code})`)));
    return worker;
  }

  private failAll(error: Error) {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
