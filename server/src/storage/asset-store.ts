// Where uploaded attachments live. The metadata, and which notifications reference an asset,
// are always rows of the database; the bytes go through AssetStore: in the row itself
// (DatabaseAssetStore) or in a directory (FileAssetStore, file-asset-store.ts), and an
// S3-compatible store could replace either without touching the rules around it.
import type { AssetBytes } from "./asset-bytes.ts";
import type { Db } from "./database.ts";

export interface AssetMeta {
  id: string;
  /** The producer key that uploaded it. */
  producerId: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  createdAt: Date;
}

export interface AssetStore {
  /** Stores a new asset (metadata and bytes) under its id. */
  put(meta: AssetMeta, bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  meta(id: string): Promise<AssetMeta | null>;
  /**
   * Opens the bytes, before anything is sent: the bytes in order, at most `chunkBytes` at a time,
   * each read only when the consumer asks for it; ends early when the asset is gone meanwhile (the
   * consumer compares with `meta.size`). Rejects when the row exists but its bytes do not.
   */
  open(id: string, size: number, chunkBytes: number): Promise<AsyncIterable<Uint8Array>>;
  /** Removes it unless a notification references it by now; true when it was removed. */
  removeUnreferenced(id: string): Promise<boolean>;
  /** Removes stored bytes that no row names (left by a crash) and that are older than `cutoff`; returns how many. */
  removeOrphans(cutoff: Date): Promise<number>;
  /** Stops what it runs beside the server; the database itself is closed by its owner. */
  close(): Promise<void>;
}

const metaColumns = { id: true, producerId: true, filename: true, contentType: true, size: true, sha256: true, createdAt: true } as const;

/**
 * The default: bytes in the Asset row itself (nothing else to run, back up or keep in step),
 * written and read through the driver (asset-bytes.ts), never whole through Prisma.
 */
export class DatabaseAssetStore implements AssetStore {
  constructor(
    private readonly db: Db,
    private readonly bytes: AssetBytes,
  ) {}

  async put(meta: AssetMeta, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    await this.db.asset.create({ data: { ...meta, bytes: new Uint8Array(0) } });
    try {
      await this.bytes.write(meta.id, bytes);
    } catch (error) {
      // Nobody knows the id yet: the row goes with the failure (the collector would take it later).
      await this.db.asset.deleteMany({ where: { id: meta.id } }).catch(() => undefined);
      throw error;
    }
  }

  meta(id: string): Promise<AssetMeta | null> {
    return this.db.asset.findUnique({ where: { id }, select: metaColumns });
  }

  open(id: string, size: number, chunkBytes: number): Promise<AsyncIterable<Uint8Array>> {
    return Promise.resolve(this.bytes.chunks(id, size, chunkBytes));
  }

  /** Whether the row holds the bytes itself (an empty file is never accepted, so none means elsewhere). */
  async holdsBytes(id: string): Promise<boolean> {
    return ((await this.bytes.length(id)) ?? 0) > 0;
  }

  close(): Promise<void> {
    return this.bytes.close();
  }

  /** Bytes live and die with their row here: nothing is ever orphaned. */
  removeOrphans(): Promise<number> {
    return Promise.resolve(0);
  }

  async removeUnreferenced(id: string): Promise<boolean> {
    try {
      const { count } = await this.db.asset.deleteMany({ where: { id, refs: { none: {} } } });
      return count === 1;
    } catch (error) {
      // A publish wrote its reference between the check and the delete: the foreign key refuses
      // the delete (Restrict), and the asset stays, as it should.
      if (isForeignKeyViolation(error)) return false;
      throw error;
    }
  }
}

/** Reference queries: which assets a producer owns, who may read one, which are orphaned. */
export class AssetIndex {
  constructor(private readonly db: Db) {}

  /** Owner of each existing asset among `ids` (missing ones are absent from the map). */
  async ownersOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.asset.findMany({ where: { id: { in: [...ids] } }, select: { id: true, producerId: true } });
    return new Map(rows.map((r) => [r.id, r.producerId]));
  }

  /**
   * Whether a notification the person may read (`notification(id)`'s rule: their PERSON and
   * SESSION records, every APPLICATION one; terminal ones too) references the asset.
   */
  async visibleTo(assetId: string, personId: string): Promise<boolean> {
    const ref = await this.db.assetReference.findFirst({
      where: { assetId, notification: { OR: [{ personId }, { scope: "APPLICATION" }] } },
      select: { assetId: true },
    });
    return ref !== null;
  }

  /** Assets created before `cutoff` that no notification references, oldest first. */
  async unreferencedBefore(cutoff: Date, limit: number): Promise<string[]> {
    const rows = await this.db.asset.findMany({
      where: { createdAt: { lt: cutoff }, refs: { none: {} } },
      select: { id: true },
      orderBy: { createdAt: "asc" },
      take: limit,
    });
    return rows.map((r) => r.id);
  }
}

/** Prisma's error code for a foreign-key violation (P2003), or the driver's when it passes one through. */
function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === "P2003" || /foreign key/i.test(e?.message ?? "");
}
