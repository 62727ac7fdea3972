// What the benchmark needs from each of the three servers it compares.
import type { TargetName } from "./config.ts";
import type { SubscribeSpec } from "./worker-protocol.ts";

export interface FanoutServer {
  name: TargetName;
  /** What exactly was measured, for the report. */
  description: string;
  version: string;
  /** The process whose tree (it and its children) is measured for memory and CPU. */
  pid: number;
  subscribe: SubscribeSpec;
  /** Publishes one event whose payload carries marker(seq, sendMicros); resolves once accepted. */
  publish(seq: number, sendMicros: number): Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  serverCpus: string;
  /** Connections the server must be able to hold (subscribers plus publishers). */
  openFiles: number;
  /** Publish requests in flight at most. */
  maxPublishers: number;
  log(line: string): void;
}

/** A baseline's message body: the marker padded to about the size of Herald's event. */
export function paddedBody(marker: string, bytes: number): string {
  return marker + " ".padEnd(Math.max(1, bytes - marker.length), "x");
}
