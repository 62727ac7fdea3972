// Attachments kept as files (HERALD_ASSET_DIR; SQLite's default beside the database file), over
// real HTTP on every provider: the bytes served are the bytes uploaded, the file goes with its
// row, bytes missing on disk are a clean error, a crashed upload leaves nothing anyone can use,
// and an asset stored in its row before the file store existed is still served.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createTempDir, type TempDir } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Where the files lie and what a row holds are this suite's subject (a crashed upload, a legacy
// row): it reads them with the storage layer's own helpers.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- see "Public modules" in docs/decisions.md
import { assetBytesOf } from "../../src/storage/assets/asset-bytes.ts";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- as above
import { DatabaseAssetStore } from "../../src/storage/assets/asset-store.ts";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- as above
import { assetDirFor } from "../../src/storage/assets/file-asset-store.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { expectRefusal, send } from "../security/wire.ts";
import { storeOf } from "../support/store.ts";

const GRACE_MS = 60_000;
/** Past the grace period and the orphans' own minimum age (10 minutes). */
const LONG_AFTER_MS = 60 * 60 * 1000;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const UPLOAD = `mutation($file: File!) { uploadAsset(file: $file) { __typename ... on Asset { id size sha256 } ... on ValidationError { field message } } }`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`attachments as files on ${provider.name}`, () => {
    let h: TestHerald;
    let base: string;
    let dir: string;
    let ada: { id: string; token: string };
    let bob: { id: string; token: string };
    // PostgreSQL keeps the bytes in the database unless a directory is configured.
    let configured: TempDir | undefined;

    beforeAll(async () => {
      configured = provider.name === "postgresql" ? createTempDir("herald-assets-") : undefined;
      // One download in flight per credential: back-to-back downloads must each find it free.
      h = await startHerald(provider, { assetGraceMs: GRACE_MS, assetDir: configured?.path, assetDownloadsPerCredential: 1 });
      base = h.url.replace(/\/graphql$/, "");
      dir = assetDirFor(h.databaseUrl, provider.name, configured?.path)!;
      ada = await h.newPerson("Ada");
      bob = await h.newPerson("Bob");
    });
    afterAll(async () => {
      await h?.close();
      configured?.remove();
    });

    async function uploaded(bytes: Uint8Array, filename = "report.bin") {
      const form = new FormData();
      form.set("operations", JSON.stringify({ query: UPLOAD, variables: { file: null } }));
      form.set("map", JSON.stringify({ 0: ["variables.file"] }));
      form.set("0", new Blob([new Uint8Array(bytes)], { type: "application/octet-stream" }), filename);
      const response = await fetch(h.url, { method: "POST", headers: { authorization: `Bearer ${h.producerKey}` }, body: form });
      const body = (await response.json()) as any;
      expect(body.data?.uploadAsset?.__typename, JSON.stringify(body)).toBe("Asset");
      return body.data.uploadAsset as { id: string; size: number; sha256: string };
    }
    const attachment = (assetId: string) => [{ kind: "DOWNLOAD_ATTACHMENT_ASSET", id: "file", label: "Download", assetId }];
    const publishFor = (personId: string, key: string, assetId: string) =>
      h.publish({ scope: "PERSON", personId, key, title: "Attached", actions: attachment(assetId) });
    const download = (id: string, token: string) => send(`${base}/assets/${id}`, { token });
    const bytesOf = async (id: string, token: string) => {
      const response = await fetch(`${base}/assets/${id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      return new Uint8Array(await response.arrayBuffer());
    };
    const randomBytes = (size: number) => new Uint8Array(size).map((_, i) => (i * 7919) % 256);

    it("keeps the upload as a file, not in its row, and the addressee downloads identical bytes", async () => {
      const bytes = randomBytes(700 * 1024); // several 256 KiB chunks
      const asset = await uploaded(bytes);
      expect(readFileSync(join(dir, asset.id)).equals(Buffer.from(bytes))).toBe(true);
      expect(await assetBytesOf(h.herald.database).length(asset.id)).toBe(0);
      await publishFor(ada.id, "files:1", asset.id);
      const got = await bytesOf(asset.id, ada.token);
      expect(sha256(got)).toBe(asset.sha256);
      expect(got.byteLength).toBe(bytes.byteLength);
      // A client that starts the next download as soon as one arrives is never refused.
      for (let i = 0; i < 10; i++) expect(sha256(await bytesOf(asset.id, ada.token))).toBe(asset.sha256);
      // No temporary file is left behind.
      expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    });

    it("answers 404 to another person and for an unreferenced upload, as for an unknown id", async () => {
      const asset = await uploaded(randomBytes(2_000));
      await publishFor(ada.id, "files:private", asset.id);
      const unknown = await download(randomUUID(), bob.token);
      const bobs = await download(asset.id, bob.token);
      expectRefusal(bobs, 404, "NOT_FOUND");
      expect(bobs.text).toBe(unknown.text);
      const loose = await uploaded(randomBytes(2_000));
      expectRefusal(await download(loose.id, ada.token), 404, "NOT_FOUND");
    });

    it("answers a clean 500 when the file is missing or damaged on disk, and keeps serving others", async () => {
      const lost = await uploaded(randomBytes(3_000));
      const fine = await uploaded(randomBytes(3_000));
      await publishFor(ada.id, "files:lost", lost.id);
      await publishFor(ada.id, "files:fine", fine.id);
      const cut = await uploaded(randomBytes(3_000));
      await publishFor(ada.id, "files:cut", cut.id);
      rmSync(join(dir, lost.id));
      truncateSync(join(dir, cut.id), 1_000);
      expectRefusal(await download(lost.id, ada.token), 500, "INTERNAL_SERVER_ERROR");
      // A file shorter than its row says is refused before a byte is sent, not cut mid-transfer.
      expectRefusal(await download(cut.id, ada.token), 500, "INTERNAL_SERVER_ERROR");
      // The refused download gave its slot back, and the server goes on.
      for (let i = 0; i < 5; i++) expectRefusal(await download(lost.id, ada.token), 500, "INTERNAL_SERVER_ERROR");
      expect(sha256(await bytesOf(fine.id, ada.token))).toBe(fine.sha256);
    });

    it("removes the file with its row when the collector takes an asset nothing references", async () => {
      const kept = await uploaded(randomBytes(1_500));
      const orphan = await uploaded(randomBytes(1_500));
      await publishFor(ada.id, "files:kept", kept.id);
      h.clock.advance(GRACE_MS * 2);
      await h.herald.services.assets.collect();
      expect(await storeOf(h.herald.database).count("Asset", (q) => q.where("id", "=", orphan.id))).toBe(0);
      expect(existsSync(join(dir, orphan.id))).toBe(false);
      expect(existsSync(join(dir, kept.id))).toBe(true);
      expect(sha256(await bytesOf(kept.id, ada.token))).toBe(kept.sha256);
    });

    it("leaves nothing usable after a crash between the temporary write and the rename (or before the row), and sweeps it later", async () => {
      // What a crashed upload leaves: a temporary file, or a renamed file whose row was never written.
      const beforeRename = randomUUID();
      const beforeRow = randomUUID();
      writeFileSync(join(dir, `${beforeRename}.tmp`), randomBytes(1_000));
      writeFileSync(join(dir, beforeRow), randomBytes(1_000));
      const stranger = join(dir, "operator-notes.txt");
      writeFileSync(stranger, "not an asset");
      for (const id of [beforeRename, beforeRow]) {
        const published = await h.publish({ scope: "PERSON", personId: ada.id, key: `files:crash:${id}`, title: "t", actions: attachment(id) });
        expect(published).toMatchObject({ __typename: "ValidationError", field: "actions.0.assetId" });
        expectRefusal(await download(id, ada.token), 404, "NOT_FOUND");
      }
      // Young files may be an upload whose row is on its way: kept.
      await h.herald.services.assets.collect();
      expect(existsSync(join(dir, `${beforeRename}.tmp`)) && existsSync(join(dir, beforeRow))).toBe(true);

      h.clock.advance(LONG_AFTER_MS);
      expect(await h.herald.services.assets.collect()).toBeGreaterThanOrEqual(2);
      expect(existsSync(join(dir, `${beforeRename}.tmp`)) || existsSync(join(dir, beforeRow))).toBe(false);
      expect(existsSync(stranger)).toBe(true);
    });

    it("still serves an asset stored in its row before the file store existed, and collects it", async () => {
      const bytes = randomBytes(300 * 1024);
      const [existing] = await storeOf(h.herald.database).pick("Asset", ["producerId"], (q) => q.limit(1));
      if (!existing) throw new Error("no asset stored yet to take a producer from");
      const producerId = existing.producerId;
      const id = randomUUID();
      const legacy = new DatabaseAssetStore(h.herald.database, assetBytesOf(h.herald.database));
      const meta = {
        id,
        producerId,
        filename: "old.bin",
        contentType: "application/octet-stream",
        size: bytes.byteLength,
        sha256: sha256(bytes),
        createdAt: h.clock.now(),
      };
      await legacy.put(meta, new Uint8Array(bytes));
      expect(existsSync(join(dir, id))).toBe(false);
      const notice = await publishFor(ada.id, "files:legacy", id);
      for (let i = 0; i < 5; i++) expect(sha256(await bytesOf(id, ada.token))).toBe(meta.sha256);

      await h.publish({ scope: "PERSON", personId: ada.id, key: "files:legacy", title: "t2", actions: [] });
      expect(notice.revision).toBe(1);
      h.clock.advance(LONG_AFTER_MS);
      await h.herald.services.assets.collect();
      expect(await storeOf(h.herald.database).count("Asset", (q) => q.where("id", "=", id))).toBe(0);
    });
  });
}
