// Attachments for DOWNLOAD_ATTACHMENT_ASSET follow-ups: producers upload them with a GraphQL
// multipart request; persons download them over HTTP (transport/http/asset-download.ts).
import { requireProducer } from "../../service/producer-rights.ts";
import type { AssetMeta } from "../../storage/assets/asset-store.ts";
import { builder } from "./builder.ts";
import { asResult, resultUnion } from "./errors.ts";

export const AssetRef = builder.objectRef<AssetMeta>("Asset").implement({
  description: "An uploaded file. Name its id as `assetId` in a DOWNLOAD_ATTACHMENT_ASSET follow-up of a notification this producer key publishes.",
  fields: (t) => ({
    id: t.exposeID("id"),
    filename: t.exposeString("filename"),
    contentType: t.exposeString("contentType", { description: "The accepted type the download is served with." }),
    size: t.exposeInt("size", { description: "Bytes." }),
    sha256: t.exposeString("sha256", { description: "Hex SHA-256 of the bytes." }),
    createdAt: t.field({ type: "DateTime", resolve: (a) => a.createdAt }),
  }),
});

export const UploadAssetResult = resultUnion<AssetMeta>("UploadAssetResult", () => AssetRef, ["ValidationError"]);

builder.mutationFields((t) => ({
  uploadAsset: t.field({
    type: UploadAssetResult,
    args: {
      file: t.arg({ type: "File", required: true }),
      filename: t.arg.string({ required: false, description: "Stored name; defaults to the file part's own name." }),
    },
    description:
      "Stores a file (a multipart request; HERALD_ASSET_MAX_BYTES, an allowed content type that matches the bytes). Unreferenced uploads are collected after a grace period.",
    resolve: (_root, args, ctx) => {
      const producer = requireProducer(ctx.caller, "uploadAsset");
      return asResult(UploadAssetResult, () => ctx.services.assets.upload(producer.credentialId, args.file, args.filename));
    },
  }),
}));
