// File uploads over real HTTP on every storage provider: a caller that may not upload is refused
// from its headers before the body is read; names and text content are checked as documented,
// and a refused upload stores nothing.
import { connect } from "node:net";
import { eventually } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

/** Large enough that a download whose client stops reading stays in flight (beyond socket buffers). */
const MAX = 16 * 1024 * 1024;
const DOWNLOADS = 2;
const UPLOAD = `mutation($file: File!, $filename: String) {
  uploadAsset(file: $file, filename: $filename) { __typename ... on Asset { id filename } ... on ValidationError { field message } }
}`;

function multipart(bytes: Uint8Array, filename: string, type: string, storedName: string | null = null): FormData {
  const form = new FormData();
  form.set("operations", JSON.stringify({ query: UPLOAD, variables: { file: null, filename: storedName } }));
  form.set("map", JSON.stringify({ 0: ["variables.file"] }));
  form.set("0", new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
}

/**
 * Sends a multipart request's head and only the first bytes of a body announced as `declared`
 * bytes long, and resolves with the status line once the server answers: it never needs the rest.
 */
function answerBeforeBody(url: string, token: string | null, declared: number): Promise<{ status: number; head: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = "";
    socket.on("error", reject);
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      socket.destroy();
      resolve({ status: Number(received.split(" ")[1]), head: received.slice(0, end) });
    });
    socket.on("connect", () => {
      const headers = [
        `POST /graphql HTTP/1.1`,
        `host: ${hostname}:${port}`,
        `content-type: multipart/form-data; boundary=xyz`,
        `content-length: ${declared}`,
        ...(token ? [`authorization: Bearer ${token}`] : []),
      ];
      socket.write(`${headers.join("\r\n")}\r\n\r\n--xyz\r\ncontent-disposition: form-data; name="operations"\r\n\r\n{`);
    });
  });
}

/** Starts a download, reads its status line, then stops reading: the transfer stays in flight. */
function stalledDownload(base: string, id: string, token: string): Promise<{ status: number; close(): void }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.on("error", reject);
    socket.once("data", (chunk) => {
      socket.pause();
      resolve({ status: Number(chunk.toString("latin1").split(" ")[1]), close: () => socket.destroy() });
    });
    socket.on("connect", () => socket.write(`GET /assets/${id} HTTP/1.1\r\nhost: ${hostname}:${port}\r\nauthorization: Bearer ${token}\r\n\r\n`));
  });
}

for (const provider of providers) {
  describe.skipIf(!provider.available)(`uploads on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };

    beforeAll(async () => {
      h = await startHerald(provider, { assetMaxBytes: MAX, maxBodyBytes: 16 * 1024, assetDownloadsPerCredential: DOWNLOADS });
      ada = await h.newPerson("Ada");
    });
    afterAll(async () => h?.close());

    const assetRows = () => storeOf(h.herald.database).count("Asset");
    const upload = async (form: FormData, token: string | null = h.producerKey) => {
      const response = await fetch(h.url, { method: "POST", headers: token ? { authorization: `Bearer ${token}` } : {}, body: form });
      return { status: response.status, body: (await response.json()) as any };
    };

    it("refuses an upload without a producer key from its headers, before reading the body", async () => {
      const anonymous = await answerBeforeBody(h.url, null, MAX);
      expect(anonymous.status).toBe(401);
      const person = await answerBeforeBody(h.url, ada.token, MAX);
      expect(person.status).toBe(403);
      const forged = await answerBeforeBody(h.url, "herald_pk_notakey", MAX);
      expect(forged.status).toBe(401);
      // A whole request is answered the same way, with a typed error, mapped file or not.
      const png = new Uint8Array(1024).fill(7);
      for (const [token, status, code] of [
        [null, 401, "UNAUTHENTICATED"],
        [ada.token, 403, "FORBIDDEN"],
      ] as const) {
        const r = await upload(multipart(png, "a.bin", "application/octet-stream"), token);
        expect({ status: r.status, code: r.body.errors?.[0]?.extensions?.code }).toEqual({ status, code });
        const unmapped = new FormData();
        unmapped.set("operations", JSON.stringify({ query: "{ notificationCounts { total } }" }));
        unmapped.set("map", "{}");
        unmapped.set("0", new Blob([png]), "a.bin");
        expect((await upload(unmapped, token)).status).toBe(status);
      }
      expect(await assetRows()).toBe(0);
    });

    it("refuses file names with C1 controls or bidirectional overrides, naming the field", async () => {
      const text = new TextEncoder().encode("plain text\n");
      for (const name of ["invoice\u202Efdp.exe", "a\u2066b.txt", "a\u0085b.txt", "a\u009bb.txt", "a\u200fb.txt"]) {
        for (const [part, stored] of [
          [name, null],
          ["ok.txt", name],
        ] as const) {
          const r = await upload(multipart(text, part, "text/plain", stored));
          expect(r.body.data?.uploadAsset, JSON.stringify({ name, r })).toMatchObject({ __typename: "ValidationError", field: "filename" });
        }
      }
      const fine = await upload(multipart(text, "Übersicht – März.txt", "text/plain"));
      expect(fine.body.data.uploadAsset).toMatchObject({ __typename: "Asset", filename: "Übersicht – März.txt" });
      const probe = storeOf(h.herald.database);
      await probe.execute(probe.build.deleteFrom("Asset"));
    });

    it("refuses markup in a text upload whatever control or space bytes lead it", async () => {
      const leads = ["\f", "\v", "\u0000", "\u0001", " \t\r\n\f", "\ufeff\f"];
      for (const lead of leads) {
        for (const body of ["<html><script>alert(1)</script>", "<svg onload=alert(1)>", "<?xml version='1.0'?>"]) {
          const r = await upload(multipart(new TextEncoder().encode(lead + body), "x.txt", "text/plain"));
          expect(r.body.data?.uploadAsset, JSON.stringify({ lead, body })).toMatchObject({ __typename: "ValidationError", field: "file" });
        }
      }
      // The same markup in UTF-16 (with its byte-order mark) is markup too.
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("<html>", "utf16le")]);
      expect((await upload(multipart(utf16, "x.txt", "text/plain"))).body.data.uploadAsset.__typename).toBe("ValidationError");
      expect(await assetRows()).toBe(0);
      // Text that merely contains a "<" later is fine.
      const ok = await upload(multipart(new TextEncoder().encode("a < b\n"), "x.txt", "text/plain"));
      expect(ok.body.data.uploadAsset.__typename).toBe("Asset");
    });

    it("streams a large attachment whole, and bounds the downloads one credential has in flight (429 past it)", async () => {
      const bytes = new Uint8Array(MAX - 1024).map((_, i) => (i * 7) % 256);
      const r = await upload(multipart(bytes, "big.bin", "application/octet-stream"));
      const asset = r.body.data.uploadAsset as { id: string };
      await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "big",
        title: "Big",
        actions: [{ kind: "DOWNLOAD_ATTACHMENT_ASSET", id: "f", label: "Get", assetId: asset.id }],
      });
      const base = h.url.replace(/\/graphql$/, "");
      const whole = await fetch(`${base}/assets/${asset.id}`, { headers: { authorization: `Bearer ${ada.token}` } });
      expect(whole.headers.get("content-length")).toBe(String(bytes.byteLength));
      expect(Buffer.from(await whole.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

      const stalled = [];
      for (let i = 0; i < DOWNLOADS; i++) stalled.push(await stalledDownload(base, asset.id, ada.token));
      expect(stalled.map((d) => d.status)).toEqual(Array(DOWNLOADS).fill(200));
      const refused = await fetch(`${base}/assets/${asset.id}`, { headers: { authorization: `Bearer ${ada.token}` } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(((await refused.json()) as any).errors[0].extensions.code).toBe("TOO_MANY_REQUESTS");
      // Another person is not affected by Ada's bound.
      const bob = await h.newPerson("Bob");
      await h.publish({
        scope: "APPLICATION",
        key: "big-app",
        title: "Big",
        actions: [{ kind: "DOWNLOAD_ATTACHMENT_ASSET", id: "f", label: "Get", assetId: asset.id }],
      });
      const bobs = await fetch(`${base}/assets/${asset.id}`, { method: "HEAD", headers: { authorization: `Bearer ${bob.token}` } });
      expect(bobs.status).toBe(200);
      // A client that goes away gives its slot back.
      for (const d of stalled) d.close();
      await eventually(
        async () => {
          const again = await fetch(`${base}/assets/${asset.id}`, { headers: { authorization: `Bearer ${ada.token}` } });
          if (again.status !== 200) return false;
          return (await again.arrayBuffer()).byteLength === bytes.byteLength;
        },
        10_000,
        "a slot to be released by the closed downloads",
      );
    });
  });
}
