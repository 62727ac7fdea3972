// Attachment bytes as files in a directory (HERALD_ASSET_DIR; SQLite's default is a directory
// beside the database file). A download is then a file stream read on libuv's threads: nothing
// copies a whole value on the event loop, which a database value cannot avoid on SQLite.
// The metadata and references stay rows, and an asset stored in its row before this store
// existed is still served from there.
import { constants } from "node:fs";
import { access, mkdir, open, opendir, rename, stat, unlink } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { AssetMeta, AssetStore, DatabaseAssetStore } from "./asset-store.ts";
import { sqliteFileOf } from "../connection/database-url.ts";

/** Asset ids are server-generated UUIDs; a file name is derived from nothing else. */
const ASSET_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TEMP_SUFFIX = ".tmp";

/** Rows looked up per query while looking for files without one. */
const ORPHAN_BATCH = 200;

/** The bytes of an existing asset are not where its row says they are, or not whole. */
export class AssetBytesMissingError extends Error {
  constructor(id: string, problem = "is missing") {
    super(`The file of attachment ${id} in the attachment directory ${problem}`);
    this.name = "AssetBytesMissingError";
  }
}

/**
 * The directory of the file store: HERALD_ASSET_DIR when set; else, for a SQLite file, one beside
 * it named like SQLite's own companions (`herald.db-assets`), so two databases in one folder never
 * share one; else (PostgreSQL, in-memory SQLite) none: the bytes stay in the database, since
 * several instances would need a directory they all share.
 */
export function assetDirFor(databaseUrl: string, provider: "sqlite" | "postgresql", configured: string | undefined): string | null {
  if (configured) return resolve(configured);
  if (provider !== "sqlite") return null;
  const file = sqliteFileOf(databaseUrl);
  return file === ":memory:" || file === "" ? null : join(dirname(resolve(file)), `${file.split(/[\\/]/).pop()}-assets`);
}

export class FileAssetStore implements AssetStore {
  private constructor(
    private readonly dir: string,
    /** The rows, and the bytes of assets stored before the files (read and removed through it). */
    private readonly rows: DatabaseAssetStore,
  ) {}

  /** Creates the directory (owner only) and fails at start when it cannot be written. */
  static async open(dir: string, rows: DatabaseAssetStore): Promise<FileAssetStore> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await access(dir, constants.R_OK | constants.W_OK);
    return new FileAssetStore(dir, rows);
  }

  /**
   * The file is complete and durable before the row exists: written to a temporary name, synced,
   * renamed, and the directory synced. A crash before the rename leaves only a temporary file,
   * and one after it a file without a row; neither is an asset, and removeOrphans takes both.
   */
  async put(meta: AssetMeta, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    const final = this.fileOf(meta.id);
    if (!final) throw new Error("Not an asset id");
    const temp = final + TEMP_SUFFIX;
    try {
      const file = await open(temp, "wx", 0o600);
      try {
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, final);
      await this.syncDir();
      await this.rows.insertRow(meta);
    } catch (error) {
      await Promise.all([unlink(temp).catch(() => undefined), unlink(final).catch(() => undefined)]);
      throw error;
    }
  }

  meta(id: string): Promise<AssetMeta | null> {
    return this.rows.meta(id);
  }

  async open(id: string, size: number, chunkBytes: number): Promise<AsyncIterable<Uint8Array>> {
    const path = this.fileOf(id);
    if (path) {
      try {
        const file = await open(path, "r");
        // Files are never rewritten, so a size unlike the row's is damage: refused before any byte is sent.
        const { size: stored } = await file.stat();
        if (stored !== size) {
          await file.close();
          throw new AssetBytesMissingError(id, `holds ${stored} bytes instead of ${size}`);
        }
        // The stream owns the handle: it is closed when the stream ends, fails or is destroyed.
        // Its known end lets it end with the last chunk rather than after one more read, so the
        // download's slot is free by the time the client has every byte.
        return file.createReadStream({ highWaterMark: chunkBytes, start: 0, end: size - 1 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
    if (await this.rows.holdsBytes(id)) return this.rows.open(id, size, chunkBytes);
    throw new AssetBytesMissingError(id);
  }

  async removeUnreferenced(id: string): Promise<boolean> {
    if (!(await this.rows.removeUnreferenced(id))) return false;
    // After the row: a crash in between leaves a file without a row, which removeOrphans takes.
    const path = this.fileOf(id);
    if (path) await this.remove(path);
    return true;
  }

  /**
   * Temporary files and files without a row, older than `cutoff`: what a crash left, or a row
   * removed with its producer key (cascade). Names that are not an asset's are left alone.
   */
  async removeOrphans(cutoff: Date): Promise<number> {
    let removed = 0;
    let candidates: string[] = [];
    const flush = async () => {
      const ids = candidates;
      candidates = [];
      const kept = await this.rows.existing(ids);
      for (const id of ids) if (!kept.has(id) && (await this.remove(join(this.dir, id)))) removed++;
    };
    for await (const entry of await opendir(this.dir)) {
      if (!entry.isFile()) continue;
      const temp = entry.name.endsWith(TEMP_SUFFIX);
      const id = temp ? entry.name.slice(0, -TEMP_SUFFIX.length) : entry.name;
      if (!ASSET_ID.test(id)) continue;
      const path = join(this.dir, entry.name);
      const modified = await stat(path).then((s) => s.mtime, ignoreMissing);
      if (!modified || modified >= cutoff) continue;
      if (temp) {
        if (await this.remove(path)) removed++;
        continue;
      }
      candidates.push(id);
      if (candidates.length >= ORPHAN_BATCH) await flush();
    }
    if (candidates.length > 0) await flush();
    return removed;
  }

  close(): Promise<void> {
    return this.rows.close();
  }

  /** A file name from a server-generated id only; anything else never reaches the filesystem. */
  private fileOf(id: string): string | null {
    return ASSET_ID.test(id) ? join(this.dir, id) : null;
  }

  private async remove(path: string): Promise<boolean> {
    return unlink(path).then(
      () => true,
      (error: unknown) => ignoreMissing(error) ?? false,
    );
  }

  /** A rename is durable once the directory entry is: without this a power loss may undo it. */
  private async syncDir(): Promise<void> {
    const handle = await open(this.dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

function ignoreMissing(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
  throw error;
}
