// A read-only SQLite connection on a thread of its own (see sqlite-read-thread.ts). Plain
// JavaScript with nothing but the driver, so the thread starts in milliseconds.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

const db = new Database(workerData.file, { readonly: true, fileMustExist: true, timeout: 10_000 });
const statements = new Map();

parentPort.on("message", ({ id, sql, params }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    parentPort.postMessage({ id, rows: statement.all(...params) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
