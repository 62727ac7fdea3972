// Where uploaded attachments live. The metadata, and which notifications reference an asset,
// are always rows of the database; the bytes go through AssetStore: in the row itself
// (DatabaseAssetStore) or in a directory (FileAssetStore, file-asset-store.ts), and an
// S3-compatible store could replace either without touching the rules around it.
import type { AssetBytes } from "./asset-bytes.ts";
import type { ExpressionBuilder } from "kysely";
import type { Database } from "../connection/database.ts";
import type { DB } from "../sql/sql.ts";
import type { Row } from "../sql/stored-values.ts";
import * as run from "../sql/run.ts";

/** An asset's row without its bytes (the columns as the models state them). */
export type AssetMeta = Omit<Row<"Asset">, "bytes">;

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

const META_COLUMNS = ["id", "producerId", "filename", "contentType", "size", "sha256", "createdAt"] as const;

/**
 * The default: bytes in the Asset row itself (nothing else to run, back up or keep in step),
 * written and read through the driver in slices (asset-bytes.ts), never whole.
 */
export class DatabaseAssetStore implements AssetStore {
  constructor(
    private readonly database: Database,
    private readonly bytes: AssetBytes,
  ) {}

  async put(meta: AssetMeta, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    await this.insertRow(meta);
    try {
      await this.bytes.write(meta.id, bytes);
    } catch (error) {
      // Nobody knows the id yet: the row goes with the failure (the collector would take it later).
      await run.execute(this.database.db, this.database.build.deleteFrom("Asset").where("id", "=", meta.id)).catch(() => undefined);
      throw error;
    }
  }

  /** The asset's row, its bytes empty: they are written apart (here through the driver, or as a file). */
  async insertRow(meta: AssetMeta): Promise<void> {
    const row = { ...meta, createdAt: this.database.time(meta.createdAt), bytes: Buffer.alloc(0) };
    await run.execute(this.database.db, this.database.build.insertInto("Asset").values(row));
  }

  /** Which of the ids have a row. */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await run.rows(this.database.db, "Asset", this.database.build.selectFrom("Asset").select("id").where("id", "in", ids));
    return new Set(rows.map((r) => r.id));
  }

  meta(id: string): Promise<AssetMeta | null> {
    return run.first(this.database.db, "Asset", this.database.build.selectFrom("Asset").select(META_COLUMNS).where("id", "=", id));
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
      const count = await run.execute(this.database.db, this.database.build.deleteFrom("Asset").where("id", "=", id).where(unreferenced));
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
  constructor(private readonly database: Database) {}

  /** Owner of each existing asset among `ids` (missing ones are absent from the map). */
  async ownersOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await run.rows(this.database.db, "Asset", this.database.build.selectFrom("Asset").select(["id", "producerId"]).where("id", "in", ids));
    return new Map(rows.map((r) => [r.id, r.producerId]));
  }

  /**
   * Whether a notification the person may read (`notification(id)`'s rule: their PERSON and
   * SESSION records, every APPLICATION one; terminal ones too) references the asset.
   */
  async visibleTo(assetId: string, personId: string): Promise<boolean> {
    const refs = await run.raw(
      this.database.db,
      this.database.build
        .selectFrom("AssetReference")
        .innerJoin("Notification", "Notification.id", "AssetReference.notificationId")
        .select("AssetReference.assetId")
        .where("AssetReference.assetId", "=", assetId)
        .where((eb) => eb.or([eb("Notification.personId", "=", personId), eb("Notification.scope", "=", "APPLICATION")]))
        .limit(1),
    );
    return refs.length > 0;
  }

  /** Assets created before `cutoff` that no notification references, oldest first. */
  async unreferencedBefore(cutoff: Date, limit: number): Promise<string[]> {
    const rows = await run.rows(
      this.database.db,
      "Asset",
      this.database.build
        .selectFrom("Asset")
        .select("id")
        .where("createdAt", "<", this.database.time(cutoff))
        .where(unreferenced)
        .orderBy("createdAt", "asc")
        .limit(limit),
    );
    return rows.map((r) => r.id);
  }
}

/** An Asset row no AssetReference names. */
function unreferenced(eb: ExpressionBuilder<DB, "Asset">) {
  return eb.not(eb.exists(eb.selectFrom("AssetReference").select("AssetReference.assetId").whereRef("AssetReference.assetId", "=", "Asset.id")));
}

/** A foreign-key violation, as better-sqlite3 or PostgreSQL (23503) reports it. */
function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_FOREIGNKEY" || code === "23503";
}
