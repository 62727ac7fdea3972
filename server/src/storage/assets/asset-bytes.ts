// Attachment bytes straight through the database driver, in slices: one 10 MiB value read or
// written whole held every other request for seconds. The driver passes a Buffer through.
import type { Compilable } from "kysely";
import type { Database } from "../connection/database.ts";
import { PostgresBytesThread, type SliceParameter, type SliceStatement } from "./pg-bytes-thread.ts";
import { type Builder, sql, sqlFor } from "../sql/sql.ts";

export interface AssetBytes {
  /** Sets the bytes of an existing Asset row. */
  write(id: string, bytes: Uint8Array): Promise<void>;
  /** The bytes in order, `chunkBytes` at a time; ends early when the asset is gone. */
  chunks(id: string, size: number, chunkBytes: number): AsyncIterable<Uint8Array>;
  /** How many bytes the row holds (without reading them), or null without a row. */
  length(id: string): Promise<number | null>;
  /** Stops what reads beside the server (PostgreSQL's reader thread). */
  close(): Promise<void>;
}

export function assetBytesOf(database: Database): AssetBytes {
  if (database.postgres) {
    const { pool, schema } = database.postgres;
    // The pool is the adapter's, whose connections are not set to the schema: statements name it.
    const build = schema ? sqlFor("postgresql").withSchema(schema) : sqlFor("postgresql");
    const reader = new PostgresBytesThread({ url: database.url, slice: sliceStatement(build) });
    return {
      async write(id, bytes) {
        const { sql: text, parameters } = build
          .updateTable("Asset")
          .set({ bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })
          .where("id", "=", id)
          .compile();
        await pool.query(text, [...parameters]);
      },
      // PostgreSQL reads a slice of an uncompressed (out-of-line) value without the rest; each slice
      // is one short query, decoded on the reader thread (pg-bytes-thread.ts).
      async *chunks(id, size, chunkBytes) {
        for (let offset = 0; offset < size; offset += chunkBytes) {
          const chunk = await reader.slice(id, offset, Math.min(chunkBytes, size - offset));
          if (!chunk) return;
          yield chunk;
        }
      },
      close: () => reader.close(),
      // octet_length of a stored value reads its size from the header, not the value.
      async length(id) {
        const { sql: text, parameters } = build
          .selectFrom("Asset")
          .select((eb) => eb.fn<number>("octet_length", ["bytes"]).as("length"))
          .where("id", "=", id)
          .compile();
        const { rows } = await pool.query<{ length: number }>(text, [...parameters]);
        return rows[0] ? Number(rows[0].length) : null;
      },
    };
  }
  const sqlite = database.sqlite;
  if (!sqlite) throw new Error("No driver connection for attachment bytes");
  const build = sqlFor("sqlite");
  // Compiled per call for their values; the text is the same each time, so the connection's statement cache holds it.
  const get = (query: Compilable) => {
    const { sql: text, parameters } = query.compile();
    return sqlite.prepareRead(text).get(...parameters);
  };
  return {
    // Under the writer lock, like every other write on the connection (writer-lock.ts).
    write: (id, bytes) =>
      sqlite.exclusive(async (section) => {
        const { sql: text, parameters } = build
          .updateTable("Asset")
          .set({ bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })
          .where("id", "=", id)
          .compile();
        await sqlite.whenFree(() => section.prepare(text).run(...parameters));
      }),
    // SQLite's substr() loads the whole value for every slice (a 10 MiB file read 40 times over),
    // so the value is read once, one memory copy, and handed out in chunks. At most
    // HERALD_ASSET_DOWNLOADS_PER_CREDENTIAL such copies per credential are alive at once.
    async *chunks(id, _size, chunkBytes) {
      const row = get(build.selectFrom("Asset").select("bytes").where("id", "=", id)) as { bytes: Buffer } | undefined;
      if (!row) return;
      for (let offset = 0; offset < row.bytes.byteLength; offset += chunkBytes) yield row.bytes.subarray(offset, offset + chunkBytes);
    },
    // length() of a blob is read from the record header; the value itself is not loaded.
    close: () => Promise.resolve(),
    length: async (id) => {
      const row = get(
        build
          .selectFrom("Asset")
          .select((eb) => eb.fn<number>("length", ["bytes"]).as("length"))
          .where("id", "=", id),
      ) as { length: number | bigint } | undefined;
      return row ? Number(row.length) : null;
    },
  };
}

/**
 * The reader thread's one statement, compiled here so the thread loads no builder: bound with
 * placeholder values that name each parameter, which the thread replaces in the same order.
 */
function sliceStatement(build: Builder): SliceStatement {
  const names: SliceParameter[] = ["id", "from", "for"];
  const { sql: text, parameters } = build
    .selectFrom("Asset")
    .select(sql<Buffer>`substring(${sql.ref("bytes")} from ${names[1]} for ${names[2]})`.as("chunk"))
    .where("id", "=", names[0]!)
    .compile();
  if (!parameters.every((value) => names.includes(value as SliceParameter))) throw new Error("the attachment slice binds an unexpected value");
  return { sql: text, parameters: parameters as SliceParameter[] };
}
