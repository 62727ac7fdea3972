// Attachment bytes straight through the database driver, in slices. Through Prisma's query engine
// a Bytes value is copied and converted on the event loop (measured: about 1 s per MiB written and
// 0.6 s per MiB read, in one synchronous stretch), so one 10 MiB attachment held every other
// request for seconds. The driver passes a Buffer through.
import type { Database } from "./database.ts";
import { PostgresBytesThread } from "./pg-bytes-thread.ts";

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
    const table = schema ? `"${schema.replaceAll('"', '""')}"."Asset"` : `"Asset"`;
    const reader = new PostgresBytesThread({ url: database.url, table });
    return {
      async write(id, bytes) {
        await pool.query(`UPDATE ${table} SET "bytes" = $1 WHERE "id" = $2`, [Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), id]);
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
        const { rows } = await pool.query<{ length: number }>(`SELECT octet_length("bytes") AS "length" FROM ${table} WHERE "id" = $1`, [id]);
        return rows[0] ? Number(rows[0].length) : null;
      },
    };
  }
  const sqlite = database.sqlite;
  if (!sqlite) throw new Error("No driver connection for attachment bytes");
  return {
    // Under the writer lock, like every other write on the connection (sqlite-writer.ts).
    write: (id, bytes) => sqlite.exclusive(async () => void sqlite.prepare(`UPDATE "Asset" SET "bytes" = ? WHERE "id" = ?`).run(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), id)),
    // SQLite's substr() loads the whole value for every slice (a 10 MiB file read 40 times over),
    // so the value is read once, one memory copy, and handed out in chunks. At most
    // HERALD_ASSET_DOWNLOADS_PER_CREDENTIAL such copies per credential are alive at once.
    async *chunks(id, _size, chunkBytes) {
      const row = sqlite.prepare(`SELECT "bytes" FROM "Asset" WHERE "id" = ?`).get(id) as { bytes: Buffer } | undefined;
      if (!row) return;
      for (let offset = 0; offset < row.bytes.byteLength; offset += chunkBytes) yield row.bytes.subarray(offset, offset + chunkBytes);
    },
    // length() of a blob is read from the record header; the value itself is not loaded.
    close: () => Promise.resolve(),
    length: async (id) => {
      const row = sqlite.prepare(`SELECT length("bytes") AS "length" FROM "Asset" WHERE "id" = ?`).get(id) as { length: number | bigint } | undefined;
      return row ? Number(row.length) : null;
    },
  };
}
