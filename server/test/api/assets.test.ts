// Attachments over real HTTP on every storage provider: a producer uploads (GraphQL multipart
// request), names the asset in a DOWNLOAD_ATTACHMENT_ASSET follow-up, and a person who can see
// that notification downloads it from GET /assets/:id; nobody else learns it exists.
import { createHash } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql, resultFields } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { expectRefusal, send } from "../security/wire.ts";
import { storeOf } from "../support/store.ts";

const MAX = 64 * 1024;
const GRACE_MS = 60_000;
/** Below the 40,000-byte upload of the first test: only producers' uploads get the larger cap. */
const BODY_MAX = 16 * 1024;
// A 1x1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const UPLOAD = `mutation($file: File!, $filename: String) {
  uploadAsset(file: $file, filename: $filename) {
    __typename
    ... on Asset { id filename contentType size sha256 createdAt }
    ... on ValidationError { field message }
  }
}`;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A GraphQL multipart request (operations, map, then the file part), as any spec client sends it. */
function multipart(bytes: Uint8Array, filename: string, type: string, storedName?: string): FormData {
  const form = new FormData();
  form.set("operations", JSON.stringify({ query: UPLOAD, variables: { file: null, filename: storedName ?? null } }));
  form.set("map", JSON.stringify({ 0: ["variables.file"] }));
  form.set("0", new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
}

for (const provider of providers) {
  describe.skipIf(!provider.available)(`attachments on ${provider.name}`, () => {
    let h: TestHerald;
    let base: string;
    let ada: { id: string; token: string };
    let bob: { id: string; token: string };
    let otherKey: string;

    beforeAll(async () => {
      h = await startHerald(provider, { assetMaxBytes: MAX, assetGraceMs: GRACE_MS, maxBodyBytes: BODY_MAX });
      base = h.url.replace(/\/graphql$/, "");
      ada = await h.newPerson("Ada");
      bob = await h.newPerson("Bob");
      otherKey = (await h.herald.services.auth.issueProducerKey("other plugin")).secret;
    });
    afterAll(async () => h?.close());

    const assetRows = () => storeOf(h.herald.database).count("Asset");

    async function upload(bytes: Uint8Array, filename: string, type: string, key: string | null = h.producerKey, storedName?: string) {
      const response = await fetch(h.url, {
        method: "POST",
        headers: key ? { authorization: `Bearer ${key}` } : {},
        body: multipart(bytes, filename, type, storedName),
      });
      return { status: response.status, body: (await response.json()) as any };
    }
    const uploaded = async (bytes: Uint8Array, filename: string, type: string, key = h.producerKey) => {
      const r = await upload(bytes, filename, type, key);
      expect(r.body.data?.uploadAsset?.__typename, JSON.stringify(r.body)).toBe("Asset");
      return r.body.data.uploadAsset as { id: string; filename: string; contentType: string; size: number; sha256: string };
    };
    const download = (id: string, token: string | null) => send(`${base}/assets/${encodeURIComponent(id)}`, { token });
    const attachment = (assetId: string) => [{ kind: "DOWNLOAD_ATTACHMENT_ASSET", id: "file", label: "Download", assetId }];
    const publishAs = (key: string, input: Record<string, unknown>) =>
      gql(h.url, key, `mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { ${resultFields("publish")} } }`, {
        input: { source: { plugin: "tests" }, ...input },
      }).then((r) => r.data.publishNotification);

    it("stores an upload, and the addressee downloads the same bytes as an attachment", async () => {
      const text = new TextEncoder().encode("build log\n".repeat(4_000)); // 40,000 bytes, many chunks
      const log = await uploaded(text, "build.log", "text/plain; charset=utf-8");
      expect(log).toMatchObject({ filename: "build.log", contentType: "text/plain", size: text.byteLength, sha256: sha256(text) });
      const png = await uploaded(PNG, "ignored.png", "image/png");
      const published = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "attach:1",
        title: "Build failed",
        actions: [...attachment(log.id), { kind: "DOWNLOAD_ATTACHMENT_ASSET", id: "shot", label: "Screenshot", assetId: png.id }],
      });
      expect(published.__typename).toBe("Notification");

      const got = await fetch(`${base}/assets/${log.id}`, { headers: { authorization: `Bearer ${ada.token}` } });
      expect(got.status).toBe(200);
      const bytes = new Uint8Array(await got.arrayBuffer());
      expect(sha256(bytes)).toBe(log.sha256);
      expect(Buffer.from(bytes).equals(Buffer.from(text))).toBe(true);
      expect(got.headers.get("content-type")).toBe("text/plain");
      expect(got.headers.get("content-disposition")).toBe('attachment; filename="build.log"');
      expect(got.headers.get("x-content-type-options")).toBe("nosniff");
      expect(got.headers.get("cache-control")).toContain("no-store");

      const image = await download(png.id, ada.token);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/png");
      expect(image.headers.get("content-disposition")).toBe('attachment; filename="ignored.png"');
    });

    it("keeps a name with non-ASCII characters readable, and uses the filename argument over the part's name", async () => {
      const asset = (await upload(PNG, "part-name.png", "image/png", h.producerKey, "Übersicht März.png")).body.data.uploadAsset;
      expect(asset.filename).toBe("Übersicht März.png");
      await h.publish({ scope: "PERSON", personId: ada.id, key: "attach:name", title: "t", actions: attachment(asset.id) });
      const got = await download(asset.id, ada.token);
      expect(got.headers.get("content-disposition")).toBe(`attachment; filename="_bersicht M_rz.png"; filename*=UTF-8''%C3%9Cbersicht%20M%C3%A4rz.png`);
    });

    it("answers 404 to anyone who cannot see a referencing notification, exactly as for an unknown id", async () => {
      const asset = await uploaded(PNG, "private.png", "image/png");
      await h.publish({ scope: "PERSON", personId: ada.id, key: "attach:private", title: "Only Ada", actions: attachment(asset.id) });
      const bobs = await download(asset.id, bob.token);
      const unknown = await download("00000000-0000-4000-8000-000000000000", bob.token);
      expectRefusal(bobs, 404, "NOT_FOUND");
      expect(bobs.text).toBe(unknown.text);
      expectRefusal(await send(`${base}/assets/%E0%A4%A`, { token: bob.token }), 404, "NOT_FOUND");
      expect((await download(asset.id, ada.token)).status).toBe(200);

      // Uploaded but referenced by nothing yet: nobody may read it.
      const loose = await uploaded(PNG, "loose.png", "image/png");
      expectRefusal(await download(loose.id, ada.token), 404, "NOT_FOUND");
    });

    it("lets every person download an APPLICATION notification's asset, and keeps it after the notification ended", async () => {
      const asset = await uploaded(PNG, "notice.png", "image/png");
      const notice = await h.publish({ scope: "APPLICATION", key: "attach:app", title: "For everyone", actions: attachment(asset.id) });
      expect((await download(asset.id, bob.token)).status).toBe(200);
      const dismissed = await gql(h.url, bob.token, `mutation($id: ID!) { dismissNotification(id: $id) { __typename } }`, { id: notice.id });
      expect(dismissed.data.dismissNotification.__typename).toBe("Notification");
      expect((await download(asset.id, bob.token)).status).toBe(200);

      const own = await uploaded(PNG, "resolved.png", "image/png");
      const resolved = await h.publish({ scope: "PERSON", personId: ada.id, key: "attach:resolved", title: "t", actions: attachment(own.id) });
      await gql(h.url, h.producerKey, `mutation($id: ID!) { resolveNotification(id: $id) { __typename } }`, { id: resolved.id });
      expect((await download(own.id, ada.token)).status).toBe(200);
    });

    it("refuses a producer key (403) and a missing or unknown credential (401)", async () => {
      const asset = await uploaded(PNG, "keys.png", "image/png");
      await h.publish({ scope: "PERSON", personId: ada.id, key: "attach:keys", title: "t", actions: attachment(asset.id) });
      expectRefusal(await download(asset.id, h.producerKey), 403, "FORBIDDEN");
      expectRefusal(await download(asset.id, null), 401, "UNAUTHENTICATED");
      expectRefusal(await download(asset.id, "herald_pt_not-a-real-token"), 401, "UNAUTHENTICATED");
      expect((await send(`${base}/assets/${asset.id}`, { method: "DELETE", token: ada.token })).status).toBe(405);
      expect(await storeOf(h.herald.database).count("Asset", (q) => q.where("id", "=", asset.id))).toBe(1);
    });

    it("refuses uploads by a person token or without a credential", async () => {
      const before = await assetRows();
      const asPerson = await upload(PNG, "p.png", "image/png", ada.token);
      expect(asPerson.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
      const anonymous = await upload(PNG, "a.png", "image/png", null);
      expect(anonymous.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
      expect(await assetRows()).toBe(before);
    });

    it("refuses a file over HERALD_ASSET_MAX_BYTES with a ValidationError, and a body far over it with 413 before reading it", async () => {
      const before = await assetRows();
      const slightlyLarger = await upload(new Uint8Array(MAX + 1).fill(0x61), "big.txt", "text/plain");
      expect(slightlyLarger.body.data.uploadAsset).toMatchObject({ __typename: "ValidationError", field: "file" });

      // Declared too large: refused from the header alone.
      const declared = await fetch(h.url, {
        method: "POST",
        headers: { authorization: `Bearer ${h.producerKey}` },
        body: multipart(new Uint8Array(MAX + 400 * 1024).fill(0x61), "huge.txt", "text/plain"),
      });
      expect(declared.status).toBe(413);
      expect(((await declared.json()) as any).errors[0].extensions.code).toBe("PAYLOAD_TOO_LARGE");

      // No Content-Length: counted while it streams in. The answer comes while the client is
      // still sending (it never finishes), so the server cannot have read the whole body.
      const answer = await new Promise<{ status: number; sentBytes: number }>((resolve, reject) => {
        const boundary = "----herald-test-boundary";
        const req = httpRequest(h.url, {
          method: "POST",
          headers: { authorization: `Bearer ${h.producerKey}`, "content-type": `multipart/form-data; boundary=${boundary}`, "transfer-encoding": "chunked" },
        });
        let sent = 0;
        let done = false;
        req.on("response", (res) => {
          done = true;
          res.resume();
          resolve({ status: res.statusCode ?? 0, sentBytes: sent });
          req.destroy();
        });
        req.on("error", (error) => (done ? undefined : reject(error)));
        req.write(
          `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query: UPLOAD, variables: { file: null } })}\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.file"]}\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="endless.txt"\r\nContent-Type: text/plain\r\n\r\n`,
        );
        const chunk = Buffer.alloc(16 * 1024, 0x61);
        const pump = () => {
          // Up to 64 MiB; the limit (64 KiB + 16 KiB) is passed long before.
          while (!done && sent < 64 * 1024 * 1024) {
            sent += chunk.byteLength;
            if (!req.write(chunk)) return void req.once("drain", pump);
          }
        };
        pump();
      });
      expect(answer.status).toBe(413);
      expect(answer.sentBytes).toBeLessThan(64 * 1024 * 1024);
      expect(await assetRows()).toBe(before);
    });

    it("refuses a person's or an anonymous multipart request whatever its size (only producers upload)", async () => {
      for (const [token, status] of [
        [ada.token, 403],
        [null, 401],
      ] as const) {
        for (const size of [16, BODY_MAX * 2]) {
          const r = await fetch(h.url, {
            method: "POST",
            headers: token ? { authorization: `Bearer ${token}` } : {},
            body: multipart(new Uint8Array(size).fill(0x61), "p.txt", "text/plain"),
          });
          expect(r.status).toBe(status);
        }
      }
    });

    it("refuses content types outside the allow-list and bytes that do not match the declared type", async () => {
      const before = await assetRows();
      const html = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");
      const cases: [Uint8Array, string, string, string, string?][] = [
        [html, "page.html", "text/html", "file"],
        [new TextEncoder().encode("alert(1)"), "x.js", "application/javascript", "file"],
        [new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"), "x.svg", "image/svg+xml", "file"],
        [html, "page.txt", "text/plain", "file"],
        [new TextEncoder().encode("not a picture"), "fake.png", "image/png", "file"],
        [PNG, "png.txt", "text/plain", "file"],
        [new Uint8Array(0), "empty.txt", "text/plain", "file"],
        [PNG, "x.png", "image/png", "filename", "../etc/passwd"],
        [PNG, "x.png", "image/png", "filename", "   "],
        [PNG, "x.png", "image/png", "filename", "a\u0007b.png"],
      ];
      for (const [bytes, name, type, field, storedName] of cases) {
        const r = await upload(bytes, name, type, h.producerKey, storedName);
        expect(r.body.data?.uploadAsset, `${name} as ${type}`).toMatchObject({ __typename: "ValidationError", field });
      }
      expect(await assetRows()).toBe(before);
    });

    it("refuses an unknown or another producer's assetId when publishing or updating, naming the field", async () => {
      const mine = await uploaded(PNG, "mine.png", "image/png");
      const theirs = await uploaded(PNG, "theirs.png", "image/png", otherKey);
      const unknown = await publishAs(h.producerKey, {
        scope: "PERSON",
        personId: ada.id,
        key: "attach:unknown",
        title: "t",
        actions: attachment("no-such-asset"),
      });
      expect(unknown).toMatchObject({ __typename: "ValidationError", field: "actions.0.assetId" });
      const foreign = await publishAs(h.producerKey, {
        scope: "PERSON",
        personId: ada.id,
        key: "attach:foreign",
        title: "t",
        actions: [{ kind: "COPY_TEXT", id: "c", label: "Copy", text: "x" }, ...attachment(theirs.id)],
      });
      expect(foreign).toMatchObject({ __typename: "ValidationError", field: "actions.1.assetId" });
      expect(await storeOf(h.herald.database).count("Notification", (q) => q.where("key", "in", ["attach:unknown", "attach:foreign"]))).toBe(0);

      const ok = await publishAs(h.producerKey, { scope: "PERSON", personId: ada.id, key: "attach:patch", title: "t", actions: attachment(mine.id) });
      expect(ok.__typename).toBe("Notification");
      const patched = await gql(
        h.url,
        h.producerKey,
        `mutation($id: ID!, $patch: NotificationPatch!) { updateNotification(id: $id, patch: $patch) { ${resultFields("publish")} } }`,
        {
          id: ok.id,
          patch: { actions: attachment(theirs.id) },
        },
      );
      expect(patched.data.updateNotification).toMatchObject({ __typename: "ValidationError", field: "patch.actions.0.assetId" });
      // The other producer may use its own asset.
      expect(
        (await publishAs(otherKey, { scope: "PERSON", personId: ada.id, key: "attach:theirs", title: "t", actions: attachment(theirs.id) })).__typename,
      ).toBe("Notification");
    });

    it("collects assets nothing references once the grace period has passed, and keeps referenced ones", async () => {
      const probe = storeOf(h.herald.database);
      const kept = await uploaded(PNG, "kept.png", "image/png");
      const orphan = await uploaded(PNG, "orphan.png", "image/png");
      const dropped = await uploaded(PNG, "dropped.png", "image/png");
      await h.publish({ scope: "PERSON", personId: ada.id, key: "attach:kept", title: "t", actions: attachment(kept.id) });
      const revised = await h.publish({ scope: "PERSON", personId: ada.id, key: "attach:dropped", title: "t", actions: attachment(dropped.id) });
      expect((await download(dropped.id, ada.token)).status).toBe(200);
      // A new revision without the follow-up no longer references the asset.
      await h.publish({ scope: "PERSON", personId: ada.id, key: "attach:dropped", title: "t2", actions: [] });
      expect((await download(dropped.id, ada.token)).status).toBe(404);
      expect(revised.revision).toBe(1);

      // Within the grace period an unpublished upload stays (its publish may be on its way).
      h.clock.advance(GRACE_MS / 2);
      await h.herald.services.assets.collect();
      expect(await probe.count("Asset", (q) => q.where("id", "in", [orphan.id, dropped.id]))).toBe(2);

      h.clock.advance(GRACE_MS);
      expect(await h.herald.services.assets.collect()).toBeGreaterThanOrEqual(2);
      expect(await probe.count("Asset", (q) => q.where("id", "in", [orphan.id, dropped.id]))).toBe(0);
      expect(await probe.count("Asset", (q) => q.where("id", "=", kept.id))).toBe(1);
      expect((await download(kept.id, ada.token)).status).toBe(200);
      // Every asset left is referenced by some notification.
      expect(
        await probe.count("Asset", (q) =>
          q.where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom("AssetReference").select("assetId").whereRef("AssetReference.assetId", "=", "Asset.id"))),
          ),
        ),
      ).toBe(0);
    });
  });
}
