// Ids of the rows Herald inserts (the models' @default(cuid()) is Prisma's client-side default, so
// an INSERT built by storage/sql/sql.ts must bring its own id). It keeps the cuid (v1) shape Prisma's own inserts
// produce, time first and then a per-process counter, because lists order rows created in the same
// millisecond by id: a random id would reorder them.
import { hostname } from "node:os";
import { randomInt } from "node:crypto";

const BASE = 36;
const BLOCK = BASE ** 4;
const pad = (text: string, size: number) => text.padStart(size, "0").slice(-size);
const fingerprint =
  pad(process.pid.toString(BASE), 2) + pad([...hostname()].reduce((sum, c) => sum + c.charCodeAt(0), hostname().length + BASE).toString(BASE), 2);
let counter = randomInt(BLOCK);

export function newRowId(): string {
  counter = (counter + 1) % BLOCK;
  return `c${pad(Date.now().toString(BASE), 8)}${pad(counter.toString(BASE), 4)}${fingerprint}${pad(randomInt(BLOCK).toString(BASE), 4)}${pad(randomInt(BLOCK).toString(BASE), 4)}`;
}
