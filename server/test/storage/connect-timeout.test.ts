// A PostgreSQL server that accepts connections but never answers (or a pool with no free
// connection) fails a query as "store unavailable" after the connect timeout instead of leaving
// it waiting for ever. The black hole is a real TCP listener that never speaks.
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, pingDatabase } from "../../src/storage/connection/database.ts";
import { isStorageUnavailable } from "../../src/service/storage-unavailable.ts";

describe("PostgreSQL connect timeout", () => {
  let hole: Server;
  const sockets: Socket[] = [];
  let port = 0;

  beforeAll(async () => {
    hole = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hole.listen(0, "127.0.0.1", resolve));
    port = (hole.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => hole.close(resolve));
  });

  it("fails a query against a server that never answers as unavailable, and keeps failing the same way", async () => {
    const database = await openDatabase(`postgresql://root@127.0.0.1:${port}/test`, { connectTimeoutMs: 300 });
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const error = await pingDatabase(database).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).not.toBeNull();
        expect(isStorageUnavailable(error)).toBe(true);
      }
      expect(sockets.length).toBeGreaterThanOrEqual(2);
    } finally {
      await database.close();
    }
  });
});
