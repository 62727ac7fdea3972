// Rules for attachments (DOWNLOAD_ATTACHMENT_ASSET follow-ups): which files a producer may
// upload and under which name. Downloads are always served as attachments with nosniff, so a
// browser never renders one; these checks keep the declared type honest on top of that.
import { fileTypeFromBuffer } from "file-type/core";
import { ValidationError } from "./errors.ts";
import type { FollowUpAction } from "./notification.ts";

/** Content types with a recognisable signature: the bytes must carry it. */
const SIGNED_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf", "application/zip", "application/gzip"]);
/** Text types: the bytes must not be a recognised binary format, nor start with markup (HTML, SVG, XML). */
const TEXT_TYPES = new Set(["text/plain", "text/csv", "application/json"]);
/** Anything else goes as opaque bytes; it is never given a type a browser would act on. */
const OPAQUE = "application/octet-stream";

export const ALLOWED_ASSET_TYPES: readonly string[] = [...SIGNED_TYPES, ...TEXT_TYPES, OPAQUE];

/** Formats built on a zip container (office documents, epub, jar ...) are zip files too. */
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

const FILENAME_LENGTH = 200;

export interface CheckedUpload {
  filename: string;
  contentType: string;
}

/**
 * The stored name and type of an upload, or a ValidationError naming `file` or `filename`.
 * `declaredType` is what the client sent with the file part (may carry parameters).
 */
export async function checkUpload(bytes: Uint8Array, declaredType: string, filename: string, maxBytes: number): Promise<CheckedUpload> {
  const name = checkFilename(filename);
  if (bytes.byteLength === 0) throw new ValidationError("file", "file: must not be empty");
  if (bytes.byteLength > maxBytes) throw new ValidationError("file", `file: larger than ${maxBytes} bytes`);
  const contentType = (declaredType.split(";")[0] ?? "").trim().toLowerCase() || OPAQUE;
  if (!ALLOWED_ASSET_TYPES.includes(contentType)) {
    throw new ValidationError("file", `file: content type ${contentType} is not accepted (allowed: ${ALLOWED_ASSET_TYPES.join(", ")})`);
  }
  const sniffed = await fileTypeFromBuffer(bytes);
  if (SIGNED_TYPES.has(contentType)) {
    const matches = sniffed?.mime === contentType || (contentType === "application/zip" && startsWith(bytes, ZIP_SIGNATURE));
    if (!matches) throw new ValidationError("file", `file: the content is not ${contentType}${sniffed ? ` (it looks like ${sniffed.mime})` : ""}`);
  }
  if (TEXT_TYPES.has(contentType)) {
    if (sniffed) throw new ValidationError("file", `file: the content is not ${contentType} (it looks like ${sniffed.mime})`);
    if (startsWithMarkup(bytes)) throw new ValidationError("file", `file: the content is markup (HTML, SVG or XML), not ${contentType}`);
  }
  return { filename: name, contentType };
}

/** C0 and C1 control characters and DEL. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/**
 * Marks that reorder how a name is shown ("invoice\u202Efdp.exe" displays as "invoiceexe.pdf"):
 * embeddings, overrides and isolates, and the invisible direction marks.
 */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** A plain file name: 1-200 characters, no path separators, control characters or direction marks. */
export function checkFilename(filename: string): string {
  const name = filename.trim();
  const fail = (rule: string) => new ValidationError("filename", `filename: ${rule}`);
  if (name === "" || name.length > FILENAME_LENGTH) throw fail(`must be 1-${FILENAME_LENGTH} characters`);
  if (/[/\\]/.test(name) || name === "." || name === "..") throw fail("must be a file name, not a path");
  if (CONTROL.test(name)) throw fail("must not contain control characters");
  if (BIDI.test(name)) throw fail("must not contain bidirectional override or isolate characters");
  return name;
}

/** The assets a notification's follow-ups name, each once. */
export function assetIdsOf(actions: readonly FollowUpAction[]): string[] {
  const ids = new Set<string>();
  for (const action of actions) if (action.kind === "DOWNLOAD_ATTACHMENT_ASSET" && action.assetId) ids.add(action.assetId);
  return [...ids];
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return signature.every((b, i) => bytes[i] === b);
}

/**
 * After an optional byte-order mark (UTF-8, UTF-16 in either order), anything a browser's sniffer
 * skips (whitespace, form feed, any other control byte, NUL padding), a `<` opens markup.
 */
function startsWithMarkup(bytes: Uint8Array): boolean {
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  else if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) i = 2;
  while (i < bytes.length && bytes[i]! <= 0x20) i++;
  return bytes[i] === 0x3c;
}
