// Reading a byte stream with a ceiling: whoever sends the bytes (an HTTP client, a remote
// labeler) must not decide how much memory the server spends on them.

/** The whole stream, or null as soon as it passes `maxBytes` (the rest is left unread). */
export async function readAtMost(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) return null;
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}
