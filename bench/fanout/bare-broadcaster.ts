// Baseline 1, the floor of this runtime: an SSE broadcaster on bare node:http with nothing between
// the publish and the writes (no auth, no GraphQL, no log, no per-subscriber state). GET /sub holds
// an event stream; POST /pub writes `data: <body>\n\n` to every held stream. Prints its port.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const subscribers = new Set<ServerResponse>();

const server = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/sub") {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    // Sends the headers now, as Herald and nchan do, so the subscriber knows it is connected.
    res.write(": ok\n\n");
    subscribers.add(res);
    res.on("close", () => subscribers.delete(res));
    return;
  }
  if (req.method === "POST" && req.url === "/pub") {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const message = `data: ${Buffer.concat(chunks).toString("utf8")}\n\n`;
      for (const subscriber of subscribers) subscriber.write(message);
      res.writeHead(204).end();
    });
    return;
  }
  res.writeHead(404).end();
});

server.listen(0, "127.0.0.1", () => console.log(`listening on ${(server.address() as AddressInfo).port}`));
process.once("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
