// One bounded schedule of metadata reads per eligible assistant source: at most six reads at
// about 0, 250 ms, 1 s, 3 s, 8 s and 16 s after the source. Reads are serialized (never two at
// once) and coalesced (ticks that fall due while a read runs become one read after it). Cancel
// clears every timer and aborts the read in flight. Pure: the timers and the read are injected.

export const READ_OFFSETS_MS = [0, 250, 1_000, 3_000, 8_000, 16_000] as const;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** A read says whether the schedule goes on ("continue") or has no reason to read again ("stop"). */
export type Read = (signal: AbortSignal) => Promise<"continue" | "stop">;

interface Run {
  read: Read;
  timers: unknown[];
  /** A tick fell due while a read ran: one more read follows it. */
  due: boolean;
  reading: boolean;
  controller: AbortController | null;
}

export class ReadSchedule {
  private current: Run | null = null;
  /** The read in flight, of this schedule or an aborted earlier one: the next read waits for it. */
  private inflight: Promise<void> = Promise.resolve();
  /** Reads started by the current schedule. */
  reads = 0;

  constructor(
    private readonly clock: Timers,
    private readonly offsets: readonly number[] = READ_OFFSETS_MS,
  ) {}

  /** Starts a new schedule for a new source, ending any previous one first. */
  start(read: Read): void {
    this.cancel();
    this.reads = 0;
    const run: Run = { read, timers: [], due: false, reading: false, controller: null };
    this.current = run;
    run.timers = this.offsets.map((ms) => this.clock.setTimeout(() => this.tick(run), ms));
  }

  /** Session replacement, tree navigation, agent activity, manual naming, shutdown, disposal. */
  cancel(): void {
    const run = this.current;
    if (!run) return;
    this.current = null;
    for (const handle of run.timers) this.clock.clearTimeout(handle);
    run.timers = [];
    run.due = false;
    run.controller?.abort();
  }

  /** Whether the current schedule still has timers or a read to come. */
  get active(): boolean {
    const run = this.current;
    return !!run && (run.timers.length > 0 || run.reading || run.due);
  }

  /** Resolves once no read is in flight (shutdown waits for the aborted one to end). */
  settled(): Promise<void> {
    return this.inflight;
  }

  private tick(run: Run): void {
    if (run !== this.current) return;
    run.timers.shift();
    if (run.reading) {
      run.due = true;
      return;
    }
    run.reading = true;
    this.inflight = this.inflight.then(() => this.readLoop(run));
  }

  private async readLoop(run: Run): Promise<void> {
    try {
      do {
        run.due = false;
        if (run !== this.current) return;
        const controller = new AbortController();
        run.controller = controller;
        this.reads++;
        let verdict: "continue" | "stop" = "continue";
        try {
          verdict = await run.read(controller.signal);
        } catch {
          // a failed read uses up its slot; the schedule stays bounded
        }
        run.controller = null;
        if (run !== this.current) return;
        if (verdict === "stop") {
          this.cancel();
          return;
        }
      } while (run.due);
    } finally {
      run.reading = false;
    }
  }
}
