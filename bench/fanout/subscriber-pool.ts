// The publisher's handle on its subscriber processes: starts them, splits the connections among
// them, aligns their clocks with its own and merges what they report.
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { mergeSparse } from "./latency-histogram.ts";
import { exited, stopProcess } from "@herald/testkit";
import { type CpuLayout, spawnTracked } from "../processes.ts";
import { type ConnectResult, nowMicros, type PhaseReport, type SubscribeSpec, type WorkerReply, type WorkerRequest } from "./worker-protocol.ts";

const workerScript = fileURLToPath(new URL("./subscriber-worker.ts", import.meta.url));
const serverDir = fileURLToPath(new URL("../..", import.meta.url));

class WorkerHandle {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>();

  constructor(readonly child: ChildProcess) {
    child.on("message", (message: WorkerReply) => {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      waiting?.resolve(message);
    });
    child.once("exit", (code, signal) => {
      for (const waiting of this.pending.values()) waiting.reject(new Error(`subscriber process exited (${signal ?? `exit ${code}`})`));
      this.pending.clear();
    });
  }

  call<T extends WorkerReply["type"]>(request: WorkerRequest): Promise<Extract<WorkerReply, { type: T }>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (exited(this.child)) return reject(new Error("subscriber process is gone"));
      this.pending.set(id, { resolve: resolve as (reply: WorkerReply) => void, reject });
      this.child.send({ ...request, id });
    });
  }
}

export interface PoolConnectResult extends ConnectResult {
  seconds: number;
}

export class SubscriberPool {
  private constructor(private readonly workers: WorkerHandle[]) {}

  /** `openFiles` per process: its share of the connections plus room for the runtime. */
  static start(workers: number, subscribers: number, layout: CpuLayout): SubscriberPool {
    const handles: WorkerHandle[] = [];
    for (let i = 0; i < workers; i++) {
      const child = spawnTracked(process.execPath, ["--import", "tsx", workerScript], {
        cpus: layout.clientCpus || undefined,
        openFiles: Math.ceil(subscribers / workers) + 1_024,
        cwd: serverDir,
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
      handles.push(new WorkerHandle(child));
    }
    return new SubscriberPool(handles);
  }

  get pids(): number[] {
    return this.workers.map((w) => w.child.pid!).filter(Boolean);
  }

  async connect(spec: SubscribeSpec, count: number, concurrency: number, deadlineMs: number): Promise<PoolConnectResult> {
    const started = performance.now();
    const shares = this.workers.map((_, i) => Math.floor(count / this.workers.length) + (i < count % this.workers.length ? 1 : 0));
    const lanes = Math.max(1, Math.floor(concurrency / this.workers.length));
    const results = await Promise.all(
      this.workers.map((w, i) => w.call<"connect">({ type: "connect", spec, count: shares[i]!, concurrency: lanes, deadlineMs }).then((r) => r.result)),
    );
    return {
      open: results.reduce((sum, r) => sum + r.open, 0),
      failed: results.reduce((sum, r) => sum + r.failed, 0),
      errors: results.flatMap((r) => r.errors),
      seconds: (performance.now() - started) / 1000,
    };
  }

  /**
   * Each worker's clock against this process's: the reply time against the midpoint of the round
   * trip, keeping the sample with the shortest round trip. Returns the largest uncertainty (half
   * that round trip), in microseconds.
   */
  async alignClocks(samples = 25): Promise<number> {
    let worstUncertainty = 0;
    for (const worker of this.workers) {
      let best = { roundTrip: Infinity, offset: 0 };
      for (let i = 0; i < samples; i++) {
        const sent = nowMicros();
        const { micros } = await worker.call<"clock">({ type: "clock" });
        const back = nowMicros();
        if (back - sent < best.roundTrip) best = { roundTrip: back - sent, offset: micros - (sent + back) / 2 };
      }
      await worker.call<"ok">({ type: "offset", micros: best.offset });
      worstUncertainty = Math.max(worstUncertainty, best.roundTrip / 2);
    }
    return worstUncertainty;
  }

  async startPhase(firstSeq: number, count: number): Promise<void> {
    await Promise.all(this.workers.map((w) => w.call<"ok">({ type: "phase", firstSeq, count })));
  }

  async cancel(seqs: number[]): Promise<void> {
    await Promise.all(this.workers.map((w) => w.call<"ok">({ type: "cancel", seqs })));
  }

  /** True when every subscriber (of every worker) had what `mode` asks for before the deadline. */
  async waitPhase(mode: "any" | "all", deadlineMs: number): Promise<boolean> {
    const results = await Promise.all(this.workers.map((w) => w.call<"wait">({ type: "wait", mode, deadlineMs })));
    return results.every((r) => r.result.complete);
  }

  async report(): Promise<PhaseReport> {
    const parts = (await Promise.all(this.workers.map((w) => w.call<"report">({ type: "report" })))).map((r) => r.report);
    const first = parts[0]!;
    return {
      subscribers: parts.reduce((sum, p) => sum + p.subscribers, 0),
      events: first.events,
      // Every worker decides alone; an event counts as cancelled only where all of them did.
      cancelled: first.cancelled.filter((e) => parts.every((p) => p.cancelled.includes(e))),
      received: parts.reduce((sum, p) => sum + p.received, 0),
      duplicates: parts.reduce((sum, p) => sum + p.duplicates, 0),
      stray: parts.reduce((sum, p) => sum + p.stray, 0),
      dropped: parts.reduce((sum, p) => sum + p.dropped, 0),
      negative: parts.reduce((sum, p) => sum + p.negative, 0),
      histogram: mergeSparse(parts.map((p) => p.histogram)),
      maxLatencyUs: Math.max(...parts.map((p) => p.maxLatencyUs)),
      perEventCount: first.perEventCount.map((_, e) => parts.reduce((sum, p) => sum + p.perEventCount[e]!, 0)),
      perEventLastUs: first.perEventLastUs.map((_, e) => Math.max(...parts.map((p) => p.perEventLastUs[e]!))),
    };
  }

  async close(): Promise<void> {
    await Promise.all(
      this.workers.map((w) => {
        // Disconnecting ends the worker (see subscriber-worker.ts); the signal is the fallback.
        if (w.child.connected) w.child.disconnect();
        return stopProcess(w.child, "SIGTERM", 5_000);
      }),
    );
  }
}
