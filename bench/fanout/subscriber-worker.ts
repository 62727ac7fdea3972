// A subscriber process: holds many SSE connections and records when each event reached each of
// them. It runs apart from the publisher (and, pinned, on another core than the server) so that
// reading 500,000 deliveries a second does not slow the side that publishes or the server.
//
// Sockets are plain net sockets with `onread` into one shared buffer: no HTTP client, no stream
// objects and no per-read allocation. An HTTP client would cost several times more CPU per
// delivery, and at 5,000 subscribers this process is the first thing to run out of CPU.
import { connect, type Socket } from "node:net";
import { bucketCount, bucketOf, toSparse } from "./latency-histogram.ts";
import { type ConnectResult, nowMicros, type PhaseReport, type SubscribeSpec, type WaitResult, type WorkerCall, type WorkerReply } from "./worker-protocol.ts";

const AT = 0x40;
const COLON = 0x3a;
const DOLLAR = 0x24;
const ZERO = 0x30;
const NINE = 0x39;

/** Marker scanner state: 0 looking for "@", 1 after "@", 2 in the sequence number, 3 in the time. */
interface Subscriber {
  index: number;
  socket: Socket;
  /** Response bytes before the end of the headers; null once they are done. */
  head: string | null;
  established: boolean;
  open: boolean;
  state: number;
  seq: number;
  micros: number;
  /** Events of the current phase this subscriber has had. */
  got: number;
}

const responseTimeoutMs = 30_000;
const subscribers: Subscriber[] = [];
const readBuffer = Buffer.allocUnsafe(256 * 1024);
let offsetMicros = 0;

// The current phase (see WorkerRequest "phase").
let firstSeq = 0;
let eventCount = 0;
/** Events of the phase whose publish failed before anyone got them: nobody waits for them. */
let cancelled = new Uint8Array(0);
/** Events every subscriber should get: eventCount less the cancelled ones. */
let wanted = 0;
let phaseSubscribers = 0;
let seen = new Uint8Array(0);
let perEventCount = new Int32Array(0);
let perEventLast = new Float64Array(0);
let histogram = new Float64Array(bucketCount);
let received = 0;
let duplicates = 0;
let stray = 0;
let dropped = 0;
let negative = 0;
let maxLatency = 0;
let withAny = 0;
let finished = 0;
let closedUnfinished = 0;
let waiter: { mode: "any" | "all"; done: (result: WaitResult) => void } | null = null;

function record(sub: Subscriber, seq: number, sendMicros: number, receivedMicros: number) {
  const event = seq - firstSeq;
  if (event < 0 || event >= eventCount || sub.index >= phaseSubscribers || cancelled[event]) {
    stray++;
    return;
  }
  const slot = sub.index * eventCount + event;
  if (seen[slot]) {
    duplicates++;
    return;
  }
  seen[slot] = 1;
  let latency = receivedMicros - offsetMicros - sendMicros;
  if (latency < 0) {
    negative++;
    latency = 0;
  }
  histogram[bucketOf(latency)]! += 1;
  if (latency > maxLatency) maxLatency = latency;
  perEventCount[event]! += 1;
  if (latency > perEventLast[event]!) perEventLast[event] = latency;
  received++;
  if (++sub.got === 1) withAny++;
  if (sub.got === wanted) finished++;
  checkWaiter();
}

function checkWaiter() {
  if (!waiter) return;
  const done = waiter.mode === "any" ? withAny + closedUnfinished >= phaseSubscribers : finished + closedUnfinished >= phaseSubscribers;
  if (done) {
    const w = waiter;
    waiter = null;
    w.done({ complete: true });
  }
}

/** Finds markers in [start, end) of the shared buffer; a marker may span reads. */
function scan(sub: Subscriber, buffer: Buffer, start: number, end: number, receivedMicros: number) {
  let i = start;
  while (i < end) {
    if (sub.state === 0) {
      const at = buffer.indexOf(AT, i);
      if (at < 0 || at >= end) return;
      i = at + 1;
      sub.state = 1;
      continue;
    }
    const byte = buffer[i++]!;
    if (sub.state === 1) {
      if (byte === AT) {
        sub.state = 2;
        sub.seq = 0;
      } else sub.state = 0;
    } else if (sub.state === 2) {
      if (byte >= ZERO && byte <= NINE) sub.seq = sub.seq * 10 + (byte - ZERO);
      else if (byte === COLON) {
        sub.state = 3;
        sub.micros = 0;
      } else sub.state = byte === AT ? 1 : 0;
    } else if (byte >= ZERO && byte <= NINE) sub.micros = sub.micros * 10 + (byte - ZERO);
    else {
      if (byte === DOLLAR) record(sub, sub.seq, sub.micros, receivedMicros);
      sub.state = byte === AT ? 1 : 0;
    }
  }
}

function onRead(sub: Subscriber, length: number, buffer: Buffer) {
  // One clock reading per read: events that arrived together were received together.
  const receivedMicros = nowMicros();
  let start = 0;
  if (sub.head !== null) {
    const before = sub.head.length;
    sub.head += buffer.toString("latin1", 0, length);
    const end = sub.head.indexOf("\r\n\r\n");
    if (end < 0) {
      if (sub.head.length > 16_384) sub.socket.destroy(new Error("response headers too long"));
      return;
    }
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(sub.head)?.[1];
    if (status !== "200") {
      sub.socket.destroy(new Error(`HTTP ${status ?? "?"}: ${sub.head.slice(0, 200).replace(/\r\n/g, " | ")}`));
      return;
    }
    start = end + 4 - before;
    sub.head = null;
    sub.established = true;
    sub.socket.emit("established");
  }
  scan(sub, buffer, start, length, receivedMicros);
}

function openOne(spec: SubscribeSpec, index: number): Promise<string | null> {
  return new Promise((resolve) => {
    const sub: Subscriber = { index, socket: null as unknown as Socket, head: "", established: false, open: true, state: 0, seq: 0, micros: 0, got: 0 };
    const socket = connect({
      host: spec.host,
      port: spec.port,
      // The callback gets this same buffer back; reading it as the Buffer it is keeps indexOf native.
      onread: {
        buffer: readBuffer,
        callback: (length) => {
          onRead(sub, length, readBuffer);
          return true;
        },
      },
    });
    sub.socket = socket;
    let settled = false;
    const settle = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(error);
    };
    const timer = setTimeout(() => socket.destroy(new Error(`no response within ${responseTimeoutMs / 1000} s`)), responseTimeoutMs);
    socket.once("connect", () => socket.write(spec.request));
    socket.once("established", () => {
      subscribers.push(sub);
      settle(null);
    });
    socket.on("error", (error) => settle(error.message));
    socket.once("close", () => {
      settle("closed before the response");
      if (!sub.established || !sub.open) return;
      sub.open = false;
      if (sub.index < phaseSubscribers) {
        dropped++;
        if (sub.got < wanted) closedUnfinished++;
        checkWaiter();
      }
    });
  });
}

async function connectAll(spec: SubscribeSpec, count: number, concurrency: number, deadlineMs: number): Promise<ConnectResult> {
  const deadline = Date.now() + deadlineMs;
  const errors = new Map<string, number>();
  let next = 0;
  let failed = 0;
  const lane = async () => {
    while (next < count && Date.now() < deadline) {
      const error = await openOne(spec, next++);
      if (error !== null) {
        failed++;
        errors.set(error, (errors.get(error) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  // Indices follow connection order, so the phase arrays cover exactly the open subscribers.
  subscribers.sort((a, b) => a.index - b.index);
  subscribers.forEach((sub, i) => (sub.index = i));
  return {
    open: subscribers.filter((s) => s.open).length,
    failed: failed + (count - next),
    errors: [...errors].map(([message, n]) => `${n} x ${message}`),
  };
}

function startPhase(first: number, count: number) {
  firstSeq = first;
  eventCount = count;
  wanted = count;
  cancelled = new Uint8Array(count);
  phaseSubscribers = subscribers.length;
  seen = new Uint8Array(phaseSubscribers * count);
  perEventCount = new Int32Array(count);
  perEventLast = new Float64Array(count).fill(-1);
  histogram = new Float64Array(bucketCount);
  received = duplicates = stray = dropped = negative = maxLatency = withAny = finished = closedUnfinished = 0;
  for (const sub of subscribers) {
    sub.got = 0;
    if (!sub.open) closedUnfinished++;
  }
}

/**
 * A failed publish: its event is no longer waited for, unless someone already has it (then it was
 * committed and will reach everyone).
 */
function cancel(seqs: number[]) {
  for (const seq of seqs) {
    const event = seq - firstSeq;
    if (event < 0 || event >= eventCount || cancelled[event] || perEventCount[event]! > 0) continue;
    cancelled[event] = 1;
    wanted--;
  }
  finished = closedUnfinished = 0;
  for (const sub of subscribers) {
    if (sub.index >= phaseSubscribers) continue;
    if (sub.got >= wanted) finished++;
    else if (!sub.open) closedUnfinished++;
  }
  checkWaiter();
}

function report(): PhaseReport {
  return {
    subscribers: phaseSubscribers,
    events: eventCount,
    cancelled: [...cancelled.keys()].filter((e) => cancelled[e]),
    received,
    duplicates,
    stray,
    dropped,
    negative,
    histogram: toSparse(histogram),
    maxLatencyUs: maxLatency,
    perEventCount: [...perEventCount],
    perEventLastUs: [...perEventLast],
  };
}

function reply(message: WorkerReply) {
  process.send!(message);
}

process.on("message", (message: WorkerCall) => {
  switch (message.type) {
    case "connect":
      void connectAll(message.spec, message.count, message.concurrency, message.deadlineMs).then((result) =>
        reply({ id: message.id, type: "connect", result }),
      );
      break;
    case "clock":
      reply({ id: message.id, type: "clock", micros: nowMicros() });
      break;
    case "offset":
      offsetMicros = message.micros;
      reply({ id: message.id, type: "ok" });
      break;
    case "phase":
      startPhase(message.firstSeq, message.count);
      reply({ id: message.id, type: "ok" });
      break;
    case "wait": {
      const timer = setTimeout(() => {
        waiter = null;
        reply({ id: message.id, type: "wait", result: { complete: false } });
      }, message.deadlineMs);
      waiter = {
        mode: message.mode,
        done: (result) => {
          clearTimeout(timer);
          reply({ id: message.id, type: "wait", result });
        },
      };
      checkWaiter();
      break;
    }
    case "cancel":
      cancel(message.seqs);
      reply({ id: message.id, type: "ok" });
      break;
    case "report":
      reply({ id: message.id, type: "report", report: report() });
      break;
  }
});

// The parent going away (or closing the channel) ends the worker, and with it every connection.
process.on("disconnect", () => process.exit(0));
