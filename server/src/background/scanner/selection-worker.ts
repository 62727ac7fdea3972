// The selection thread (see selection-thread.ts): answers "what is due at <now>?" with the due
// triggers that have not fired, reading through a connection of its own.
import { parentPort, workerData } from "node:worker_threads";
import { providerOf } from "../../storage/connection/database-url.ts";
import { openScanConnection } from "../../storage/companion/scan-connection.ts";
import { ScanReads } from "../../storage/companion/scan-reads.ts";
import type { SelectionReply, SelectionRequest, SelectionThreadData } from "./selection-thread.ts";
import { selectDue } from "./selection.ts";

const { databaseUrl, options } = workerData as SelectionThreadData;
const connection = await openScanConnection(databaseUrl);
const source = new ScanReads(providerOf(databaseUrl), connection.read);
// Nothing else runs on this thread: no reason to yield between pages.
const noPause = () => Promise.resolve();
const port = parentPort!;

port.on("message", (request: SelectionRequest) => {
  if (request.kind === "close") {
    void connection.close().finally(() => port.close());
    return;
  }
  selectDue(source, new Date(request.now), options, noPause).then(
    (selection) => port.postMessage({ id: request.id, selection } satisfies SelectionReply),
    (error: unknown) => port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies SelectionReply),
  );
});
