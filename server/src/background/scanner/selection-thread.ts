// Where a cycle's selection runs. Reading every dated fact and engagement and evaluating their
// rules is most of a steady cycle's work; on the request thread it held up list requests for
// hundreds of milliseconds per cycle (docs/decisions.md, "The companion"). The selection thread
// does it all beside the server, on its own connection, and hands back only what is due and
// unfired: a steady cycle then costs the request thread one message.
import { Worker } from "node:worker_threads";
import type { ScanSource, Selection, SelectionOptions } from "./selection.ts";
import { selectDue } from "./selection.ts";
import { pauseForRequests } from "./scan-deps.ts";

export interface Selector {
  select(now: Date): Promise<Selection>;
  close(): Promise<void>;
}

export interface SelectionThreadData {
  databaseUrl: string;
  options: SelectionOptions;
}

export type SelectionRequest = { kind: "select"; id: number; now: string } | { kind: "close" };
export type SelectionReply = { id: number; selection: Selection } | { id: number; error: string };

/** The selection on the server's own client (an in-memory SQLite store has no file to share). */
export class InProcessSelector implements Selector {
  constructor(
    private readonly source: ScanSource,
    private readonly options: SelectionOptions,
  ) {}

  select(now: Date): Promise<Selection> {
    return selectDue(this.source, now, this.options, pauseForRequests);
  }

  async close(): Promise<void> {}
}

const CLOSE_WAIT_MS = 2_000;

// The compiled server starts the worker's own module. Run from its TypeScript sources (the test
// suites import the server in-process), the thread starts through an entry that registers tsx.
const workerEntry = import.meta.url.endsWith(".ts") ? new URL("./selection-worker-entry.mjs", import.meta.url) : new URL("./selection-worker.js", import.meta.url);

export class SelectionThread implements Selector {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(selection: Selection): void; reject(error: Error): void }>();

  constructor(private readonly data: SelectionThreadData) {}

  /** Started on the first cycle; a thread that died is started again by the next. */
  select(now: Date): Promise<Selection> {
    const worker = (this.worker ??= this.spawn());
    const id = ++this.nextId;
    // Referenced only while a selection runs: an idle thread never keeps the process alive.
    worker.ref();
    return new Promise<Selection>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ kind: "select", id, now: now.toISOString() } satisfies SelectionRequest);
    });
  }

  /** Lets the thread close its connection, and stops it if it does not end in time. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.postMessage({ kind: "close" } satisfies SelectionRequest);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS);
    await exited;
    clearTimeout(timer);
    this.failAll(new Error("the scanner was stopped"));
  }

  private spawn(): Worker {
    const worker = new Worker(workerEntry, { workerData: this.data, execArgv: [] });
    worker.unref();
    worker.on("message", (reply: SelectionReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if ("error" in reply) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(reply.selection);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      this.failAll(error);
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the selection thread exited (${code})`)));
    return worker;
  }

  private failAll(error: Error) {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
