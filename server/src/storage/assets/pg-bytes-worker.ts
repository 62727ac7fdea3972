// The attachment reader's thread (see pg-bytes-thread.ts): answers "bytes <offset>..<offset+length>
// of asset <id>" through a pool of its own, handing the slice's memory over to the caller.
import { parentPort, workerData } from "node:worker_threads";
import pg from "pg";
import { hearingConnectionErrors } from "../connection/pg-connection-errors.ts";
import type { BytesReply, BytesRequest, BytesThreadData, SliceParameter } from "./pg-bytes-thread.ts";
import { postgresPoolConfig } from "../connection/postgres-url.ts";

// The statement comes compiled (asset-bytes.ts): the thread loads no statement builder.
const { url, slice } = workerData as BytesThreadData;
// A few at once: downloads are bounded per credential, and each waits for its client between slices.
const pool = hearingConnectionErrors(new pg.Pool(postgresPoolConfig(url, { max: 4 })));
const port = parentPort!;

port.on("message", (request: BytesRequest) => {
  if (request.kind === "close") {
    void pool.end().finally(() => port.close());
    return;
  }
  const values: Record<SliceParameter, string | number> = { id: request.assetId, from: request.offset + 1, for: request.length };
  pool
    .query<{ chunk: Buffer }>(
      slice.sql,
      slice.parameters.map((name) => values[name]),
    )
    .then(
      ({ rows }) => {
        const chunk = rows[0]?.chunk;
        if (!chunk || chunk.byteLength === 0) return port.postMessage({ id: request.id, chunk: null } satisfies BytesReply);
        // A slice of this size owns its memory; should it ever be a view into a shared pool, copy it.
        const whole = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.buffer instanceof ArrayBuffer;
        const owned = whole ? (chunk.buffer as ArrayBuffer) : new Uint8Array(chunk).buffer;
        port.postMessage({ id: request.id, chunk: owned } satisfies BytesReply, [owned]);
      },
      (error: unknown) => port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies BytesReply),
    );
});
