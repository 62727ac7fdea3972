// Messages between the benchmark (which publishes) and its subscriber processes. Every request
// carries an id that its reply repeats.
import type { SparseHistogram } from "./latency-histogram.ts";

/** One raw HTTP request, sent verbatim on every subscriber connection. */
export interface SubscribeSpec {
  host: string;
  port: number;
  request: string;
}

export type WorkerRequest =
  | { type: "connect"; spec: SubscribeSpec; count: number; concurrency: number; deadlineMs: number }
  | { type: "clock" }
  /** Worker clock minus publisher clock, in microseconds: subtracted from every receive time. */
  | { type: "offset"; micros: number }
  /** Start counting deliveries of the events numbered [firstSeq, firstSeq + count). */
  | { type: "phase"; firstSeq: number; count: number }
  /** These events' publishes failed: stop waiting for them (see subscriber-worker.ts cancel). */
  | { type: "cancel"; seqs: number[] }
  /** "any": every subscriber has at least one event of the phase; "all": every event. */
  | { type: "wait"; mode: "any" | "all"; deadlineMs: number }
  | { type: "report" };

export type WorkerCall = WorkerRequest & { id: number };

export interface ConnectResult {
  open: number;
  failed: number;
  errors: string[];
}

export interface PhaseReport {
  /** Subscribers open when the phase started: each should get every event. */
  subscribers: number;
  events: number;
  /** Indices of events no longer expected (their publish failed and nobody got them). */
  cancelled: number[];
  received: number;
  duplicates: number;
  /** Deliveries of events outside the phase (late ones from an earlier phase). */
  stray: number;
  /** Connections the server closed during the phase. */
  dropped: number;
  /** Latencies below zero (clock offset error); counted as zero. */
  negative: number;
  histogram: SparseHistogram;
  maxLatencyUs: number;
  /** Per event: how many subscribers got it, and the latency of the last one (-1: nobody). */
  perEventCount: number[];
  perEventLastUs: number[];
}

export interface WaitResult {
  complete: boolean;
}

export type WorkerReply =
  | { id: number; type: "connect"; result: ConnectResult }
  | { id: number; type: "clock"; micros: number }
  | { id: number; type: "wait"; result: WaitResult }
  | { id: number; type: "report"; report: PhaseReport }
  | { id: number; type: "ok" };

/** Wall-clock microseconds with sub-millisecond resolution, comparable across processes. */
export function nowMicros(): number {
  return (performance.timeOrigin + performance.now()) * 1000;
}

/**
 * The marker every published event carries in its payload (a notification title for Herald, the
 * message body for the baselines): `@@<seq>:<publish time in us>$`. Subscribers look for it in the
 * raw bytes, so no server's framing has to be parsed.
 */
export function marker(seq: number, sendMicros: number): string {
  return `@@${seq}:${Math.round(sendMicros)}$`;
}
