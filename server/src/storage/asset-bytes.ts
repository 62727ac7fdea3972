// Attachment bytes straight through the database driver, in slices. Through Prisma's query engine
// a Bytes value is copied and converted on the event loop (measured: about 1 s per MiB written and
// 0.6 s per MiB read, in one synchronous stretch), so one 10 MiB attachment held every other
// request for seconds. The driver passes a Buffer through, and a slice is one short query.
import type { Database } from "./database.ts";

export interface AssetBytes {
  /** Sets the bytes of an existing Asset row. */
  write(id: string, bytes: Uint8Array): Promise<void>;
  /** `length` bytes from `offset` (fewer at the end), or null when the asset is gone. */
  slice(id: string, offset: number, length: number): Promise<Uint8Array | null>;
}

export function assetBytesOf(database: Database): AssetBytes {
  if (database.postgres) {
    const { pool, schema } = database.postgres;
    const table = schema ? `"${schema.replaceAll('"', '""')}"."Asset"` : `"Asset"`;
    return {
      async write(id, bytes) {
        await pool.query(`UPDATE ${table} SET "bytes" = $1 WHERE "id" = $2`, [Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), id]);
      },
      async slice(id, offset, length) {
        const { rows } = await pool.query<{ chunk: Buffer }>(`SELECT substring("bytes" from $2 for $3) AS "chunk" FROM ${table} WHERE "id" = $1`, [id, offset + 1, length]);
        return rows[0]?.chunk ?? null;
      },
    };
  }
  const sqlite = database.sqlite;
  if (!sqlite) throw new Error("No driver connection for attachment bytes");
  return {
    // Under the writer lock, like every other write on the connection (sqlite-writer.ts).
    write: (id, bytes) => sqlite.exclusive(async () => void sqlite.prepare(`UPDATE "Asset" SET "bytes" = ? WHERE "id" = ?`).run(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), id)),
    async slice(id, offset, length) {
      const row = sqlite.prepare(`SELECT substr("bytes", ?, ?) AS "chunk" FROM "Asset" WHERE "id" = ?`).get(offset + 1, length, id) as { chunk: Buffer } | undefined;
      return row?.chunk ?? null;
    },
  };
}
