// Attachment downloads give way to every other request. On a small machine the bytes of a few
// large downloads (read, copied to sockets, received) take the CPU from a person's simple query
// even when the event loop is free, since the copying happens in the kernel and in the clients.
// So while other requests are being served (one in flight, or one ended within the last second)
// each download is paced to a modest rate; with nothing else going on it runs at full speed.
// Streams (SSE) and downloads themselves are not "other requests": they last long and would pace
// every download for as long as they are open.
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { Transform } from "node:stream";
import type { Plugin } from "graphql-yoga";

/** How long after the last other request downloads stay paced. */
export const BUSY_WINDOW_MS = 1_000;

export class RequestsInFlight {
  private count = 0;
  private lastSeen = Number.NEGATIVE_INFINITY;

  /**
   * `pacedBytesPerSecond`: a download's rate while others are served (HERALD_ASSET_PACED_BYTES_PER_SECOND,
   * 8 MiB/s by default: a 10 MiB attachment in little over a second); 0 never paces.
   */
  constructor(
    private readonly pacedBytesPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts a request until the returned function is called (once; later calls do nothing). */
  begin(): () => void {
    this.count++;
    this.lastSeen = this.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.count--;
      this.lastSeen = this.now();
    };
  }

  get inFlight(): number {
    return this.count;
  }

  /** Whether a request is in flight or ended within the busy window. */
  get busy(): boolean {
    return this.count > 0 || this.now() - this.lastSeen < BUSY_WINDOW_MS;
  }

  /** How long a chunk of `bytes` waits before it is sent: its time at the paced rate while busy, else none. */
  delayFor(bytes: number): number {
    return this.pacedBytesPerSecond > 0 && this.busy ? (bytes / this.pacedBytesPerSecond) * 1_000 : 0;
  }

  /** Waits as long as `delayFor` says. */
  async giveWay(bytes: number): Promise<void> {
    const ms = this.delayFor(bytes);
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  }
}

/** Counts every request but downloads and streams, from its first hook until its response is sent or the client goes away. */
export function useRequestsInFlight(requests: RequestsInFlight, downloadPath: RegExp): Plugin {
  return {
    onRequest({ request, url, serverContext }) {
      if (downloadPath.test(url.pathname) || request.headers.get("accept")?.includes("text/event-stream")) return;
      const res = (serverContext as { res?: ServerResponse; req?: IncomingMessage }).res;
      if (!res) return;
      const end = requests.begin();
      res.once("close", end);
    },
  };
}

/** Passes a download's chunks on one at a time, each after the wait `giveWay` asks. */
export function givingWay(requests: RequestsInFlight): Transform {
  return new Transform({
    // One chunk held at most on either side: the file is read no further ahead than before.
    writableHighWaterMark: 1,
    readableHighWaterMark: 1,
    transform(chunk: Buffer, _encoding, callback) {
      void requests.giveWay(chunk.byteLength).then(() => callback(null, chunk));
    },
  });
}
