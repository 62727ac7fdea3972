// Attachments: producers upload files, name them in DOWNLOAD_ATTACHMENT_ASSET follow-ups, and
// persons download them while they can see such a notification. Unreferenced ones are collected.
import { createHash, randomUUID } from "node:crypto";
import { assetIdsOf, checkUpload } from "../domain/assets.ts";
import type { Clock } from "../domain/clock.ts";
import { ValidationError } from "../domain/errors.ts";
import type { FollowUpAction } from "../domain/notification.ts";
import type { AssetIndex, AssetMeta, AssetStore } from "../storage/assets/asset-store.ts";

export interface AssetSettings {
  /** Largest file accepted (HERALD_ASSET_MAX_BYTES). */
  maxBytes: number;
  /** How long an unreferenced upload is kept, so an upload followed by its publish is never raced. */
  graceMs: number;
}

/** What an upload hands over: the multipart file part (Yoga's File). */
export interface UploadedFile {
  name: string;
  type: string;
  size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** The part of a follow-up action (as given, before validation) that names an asset. */
export interface NamedAsset {
  kind: string;
  assetId?: string | null;
}

/**
 * Bytes read per query while serving a download: small enough that one read is a short stretch
 * of the event loop, large enough that a 10 MiB file is 40 queries.
 */
const DOWNLOAD_CHUNK_BYTES = 256 * 1024;

/** Assets deleted per collector query: bounded work per round. */
const COLLECT_BATCH = 200;

/** Bytes without a row are removed only past this age, even with a shorter grace period. */
const ORPHAN_MIN_AGE_MS = 10 * 60 * 1000;

export class AssetService {
  constructor(
    private readonly store: AssetStore,
    private readonly index: AssetIndex,
    private readonly clock: Clock,
    private readonly settings: AssetSettings,
  ) {}

  async upload(producerId: string, file: UploadedFile, filename: string | null | undefined): Promise<AssetMeta> {
    // The body limit already refused anything much larger before it was read; this is the exact cut.
    if (file.size > this.settings.maxBytes) throw new ValidationError("file", `file: larger than ${this.settings.maxBytes} bytes`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const checked = await checkUpload(bytes, file.type, filename ?? file.name, this.settings.maxBytes);
    const meta: AssetMeta = {
      id: randomUUID(),
      producerId,
      ...checked,
      size: bytes.byteLength,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      createdAt: this.clock.now(),
    };
    await this.store.put(meta, bytes);
    return meta;
  }

  /**
   * Every asset the follow-ups name must exist and have been uploaded by this producer key;
   * otherwise a ValidationError on `<prefix>.<i>.assetId`. Another producer's asset is reported
   * like a missing one, so ids of other producers' files reveal nothing.
   */
  async assertUsable(producerId: string, actions: readonly NamedAsset[] | null | undefined, prefix: string): Promise<void> {
    if (!actions || actions.length === 0) return;
    const named = assetIdsOf(actions as readonly FollowUpAction[]);
    if (named.length === 0) return;
    const owners = await this.index.ownersOf(named);
    for (const [i, action] of actions.entries()) {
      if (action.kind !== "DOWNLOAD_ATTACHMENT_ASSET" || typeof action.assetId !== "string") continue;
      if (owners.get(action.assetId) !== producerId) {
        const field = `${prefix}.${i}.assetId`;
        throw new ValidationError(field, `${field}: no asset with this id was uploaded with this producer key`);
      }
    }
  }

  /**
   * The asset, and how to open its bytes (in chunks read as the consumer takes them; a HEAD opens
   * nothing), when the person may see a notification referencing it; else null.
   */
  async download(personId: string, id: string): Promise<{ meta: AssetMeta; open: () => Promise<AsyncIterable<Uint8Array>> } | null> {
    if (!(await this.index.visibleTo(id, personId))) return null;
    const meta = await this.store.meta(id);
    return meta ? { meta, open: () => this.store.open(id, meta.size, DOWNLOAD_CHUNK_BYTES) } : null;
  }

  /**
   * Deletes assets no notification references that are older than the grace period, then bytes
   * a crash left without their row; returns how many of both.
   */
  async collect(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.settings.graceMs);
    const rows = await this.collectRows(cutoff);
    // An upload writes its file before its row: a file younger than ORPHAN_MIN_AGE_MS may be one
    // whose row is on its way, whatever the grace period.
    const orphanCutoff = new Date(Math.min(cutoff.getTime(), this.clock.now().getTime() - ORPHAN_MIN_AGE_MS));
    return rows + (await this.store.removeOrphans(orphanCutoff));
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private async collectRows(cutoff: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const ids = await this.index.unreferencedBefore(cutoff, COLLECT_BATCH);
      let removedNow = 0;
      for (const id of ids) if (await this.store.removeUnreferenced(id)) removedNow++;
      removed += removedNow;
      // A batch that removed nothing was all references written meanwhile: stop, next round retries.
      if (ids.length < COLLECT_BATCH || removedNow === 0) return removed;
    }
  }
}
