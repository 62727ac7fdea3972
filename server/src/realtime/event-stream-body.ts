// One open event stream of /graphql/stream, written as bytes: a Node Readable that the HTTP
// adapter pipes straight into the socket, without a web-stream stack per connection. It sends
// the shared heartbeat and closes the connection of a client that lets too much wait for it.
// Protocol: docs/event-stream.md ("Heartbeats", "Slow consumers").
import { Readable } from "node:stream";
import { type Beating, startTicks, stopTicks } from "./heartbeat.ts";

export interface EventStreamLimits {
  heartbeatMs: number;
  /** Bytes that may wait for one client; past this the connection is closed. */
  maxBufferedBytes: number;
  onSlowConsumer?: () => void;
}

const HEARTBEAT = Buffer.from(": heartbeat\n\n");

export const EVENT_STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
  // Proxies such as nginx buffer responses by default; an event stream must pass through at once.
  "x-accel-buffering": "no",
} as const;

// Messages wait for the end of this turn of the event loop before they reach their sockets: the
// events committed in one turn leave for each client in one system call, where they cost one
// each (under load several commits share a turn; bench/history.md, "Render once: live fan-out").
const flushing = new Set<EventStreamBody>();
let flushScheduled = false;
function flushAll() {
  flushScheduled = false;
  for (const body of flushing) body.flush();
  flushing.clear();
}

/** The Readable the adapter pipes: a subclass rather than options with closures (one per stream). */
class BodyReadable extends Readable {
  constructor(private readonly body: EventStreamBody) {
    super();
  }

  override _read() {
    // written to by flush(); the adapter's pipe pulls at the socket's pace
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    this.body.finish();
    callback(error);
  }
}

export class EventStreamBody implements Beating {
  readonly readable: Readable = new BodyReadable(this);
  private closed = false;
  private readonly closeListeners: (() => void)[] = [];
  private waiting: (string | Buffer)[] = [];
  private waitingBytes = 0;

  /** `cutOff` drops the client's connection (a slow consumer gets no orderly end: it resumes from its cursor). */
  constructor(
    private readonly limits: EventStreamLimits,
    private readonly cutOff: () => void,
  ) {
    startTicks(limits.heartbeatMs, this);
  }

  /** Only between whole messages (write() takes whole ones), and only when nothing waits: a
   * client that has not read the last message needs no heartbeat to know the stream is alive. */
  beat(): void {
    if (!this.closed && this.waiting.length === 0 && this.readable.readableLength === 0) this.readable.push(HEARTBEAT);
  }

  /** Writes one whole message; false once the stream is closed (or just closed for falling behind). */
  write(message: string | Buffer): boolean {
    if (this.closed) return false;
    this.waiting.push(message);
    this.waitingBytes += message.length;
    if (this.readable.readableLength + this.waitingBytes > this.limits.maxBufferedBytes) {
      this.limits.onSlowConsumer?.();
      this.cutOff();
      this.readable.destroy();
      return false;
    }
    if (this.waiting.length === 1) {
      flushing.add(this);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flushAll);
      }
    }
    return true;
  }

  /** Hands what waits to the socket (see flushAll). */
  flush(): void {
    if (this.closed || this.waiting.length === 0) return;
    // One chunk: the pipe to the socket costs per chunk, the copy is a few kilobytes at most.
    const waiting = this.waiting;
    this.readable.push(waiting.length === 1 ? waiting[0] : Buffer.concat(waiting.map((m) => (typeof m === "string" ? Buffer.from(m) : m))));
    this.waiting = [];
    this.waitingBytes = 0;
  }

  /** An orderly end: what was written still reaches the client (however the operation ended). */
  end(): void {
    if (this.closed) return;
    this.flush();
    this.finish();
    this.readable.push(null);
  }

  /** Runs once the stream ends, however it ends (the client left, end(), a slow consumer). */
  onClose(listener: () => void): void {
    if (this.closed) queueMicrotask(listener);
    else this.closeListeners.push(listener);
  }

  /** Marks the stream closed and runs the close listeners (BodyReadable's destroy calls it too). */
  finish(): void {
    if (this.closed) return;
    this.closed = true;
    stopTicks(this.limits.heartbeatMs, this);
    flushing.delete(this);
    this.waiting = [];
    this.waitingBytes = 0;
    for (const listener of this.closeListeners.splice(0)) {
      try {
        listener();
      } catch {
        // one listener's failure must not keep the others from releasing what they hold
      }
    }
  }
}
