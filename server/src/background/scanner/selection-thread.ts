// Where a cycle's selection runs. Reading every dated fact and engagement and evaluating their
// rules is most of a steady cycle's work; on the request thread it held up list requests for
// hundreds of milliseconds per cycle (docs/decisions.md, "The companion"). The selection thread
// does it all beside the server, on its own connection, and hands back only what is due and
// unfired: a steady cycle then costs the request thread one message.
import type { ScanSource, Selection, SelectionOptions } from "./selection.ts";
import { selectDue } from "./selection.ts";
import { pauseForRequests } from "./scan-deps.ts";
import { RequestThread } from "../../util/request-thread.ts";

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

// The compiled server starts the worker's own module. Run from its TypeScript sources (the test
// suites import the server in-process), the thread starts through an entry that registers tsx.
const workerEntry = import.meta.url.endsWith(".ts")
  ? new URL("./selection-worker-entry.mjs", import.meta.url)
  : new URL("./selection-worker.js", import.meta.url);

export class SelectionThread implements Selector {
  private readonly thread: RequestThread<Selection>;

  constructor(data: SelectionThreadData) {
    this.thread = new RequestThread(workerEntry, data, "the selection thread", (reply) => (reply as Extract<SelectionReply, { selection: unknown }>).selection);
  }

  /** Started on the first cycle; a thread that died is started again by the next. */
  select(now: Date): Promise<Selection> {
    return this.thread.request({ kind: "select", now: now.toISOString() } satisfies Omit<Extract<SelectionRequest, { kind: "select" }>, "id">);
  }

  /** Lets the thread close its connection, and stops it if it does not end in time. */
  close(): Promise<void> {
    return this.thread.close();
  }
}
