// uploadAsset against a real server: the multipart request a producer sends, the typed refusals,
// and the person's download of what was uploaded.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPersonClient,
  createProducerClient,
  HeraldError,
  HeraldForbiddenError,
  HeraldValidationError,
  type PersonClient,
  type ProducerClient,
} from "../src/index.ts";
import { startServer, type TestServer } from "./support/server.ts";

const MAX = 64 * 1024;
// A 1x1 PNG.
const PNG = Uint8Array.from(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64"));

describe("uploadAsset", () => {
  let server: TestServer;
  let producer: ProducerClient;
  let ada: PersonClient;

  beforeAll(async () => {
    server = await startServer({ HERALD_ASSET_MAX_BYTES: String(MAX) });
    producer = createProducerClient({ url: server.url, token: server.producerKey });
    ada = createPersonClient({ url: server.url, token: server.person.token });
  });
  afterAll(async () => {
    producer?.close();
    ada?.close();
    await server?.close();
  });

  const download = (id: string) =>
    fetch(`${server.url.replace(/\/graphql$/, "")}/assets/${id}`, { headers: { authorization: `Bearer ${server.person.token}` } });

  it("uploads bytes and a Blob; the addressee of a notification naming them downloads the same bytes", async () => {
    const png = await producer.uploadAsset(PNG, "shot.png", "image/png");
    expect(png).toMatchObject({ filename: "shot.png", contentType: "image/png", size: PNG.byteLength, sha256: createHash("sha256").update(PNG).digest("hex") });
    const csv = await producer.uploadAsset(new Blob(["a,b\n1,2\n"]), "table.csv", "text/csv");
    expect(csv).toMatchObject({ filename: "table.csv", contentType: "text/csv", size: 8 });

    const published = await producer.publish({
      scope: "PERSON",
      personId: server.person.id,
      key: "sdk:attachments",
      title: "Files",
      source: { plugin: "sdk" },
      actions: [
        { kind: "DOWNLOAD_ATTACHMENT_ASSET", id: "png", label: "Screenshot", assetId: png.id },
        { kind: "DOWNLOAD_ATTACHMENT_ASSET", id: "csv", label: "Table", assetId: csv.id },
      ],
    });
    expect(published.ok).toBe(true);
    const got = await download(png.id);
    expect(got.status).toBe(200);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(PNG);
    expect(await (await download(csv.id)).text()).toBe("a,b\n1,2\n");
  });

  it("throws typed errors: the field of a refused file, a person token, a body far past the limit", async () => {
    const html = producer.uploadAsset(new TextEncoder().encode("<html></html>"), "page.html", "text/html");
    await expect(html).rejects.toBeInstanceOf(HeraldValidationError);
    await expect(html).rejects.toMatchObject({ field: "file" });
    await expect(producer.uploadAsset(PNG, "a/b.png", "image/png")).rejects.toMatchObject({ field: "filename" });
    // The server, not the client type, refuses a person token: a ProducerClient holding one is forbidden.
    const misused = createProducerClient({ url: server.url, token: server.person.token });
    await expect(misused.uploadAsset(PNG, "mine.png", "image/png")).rejects.toBeInstanceOf(HeraldForbiddenError);
    misused.close();
    const huge = producer.uploadAsset(new Uint8Array(MAX + 512 * 1024), "huge.bin", "application/octet-stream");
    await expect(huge).rejects.toBeInstanceOf(HeraldError);
    await expect(huge).rejects.toThrow(/larger than/);
  });
});
